/**
 * The API's "engine" building blocks shared by alert sources, alert routes, escalation paths and
 * workflows: parameter bindings, conditions and condition groups, expressions. One zod schema, one
 * mapping to the payload and one read-back mapping (with the normalisation rules) for all of them.
 */
import { z } from "zod";
import {
  canonicalJsonLiteral,
  keepDeclaredAlias,
  keepDeclaredJson,
  keepDeclaredPadding,
  trimTrailingEmpty,
} from "../../provider/normalise";

// ---------- parameter bindings ----------

/** One value: a literal (text, often JSON) or a reference into the trigger scope. */
export const bindingValue = z
  .strictObject({
    /** A literal value. JSON literals are compared by meaning, not by bytes. */
    literal: z.string().optional(),
    /** A reference into the scope, e.g. `incident.severity`. */
    reference: z.string().optional(),
  })
  .refine(
    (v) => (v.literal === undefined) !== (v.reference === undefined),
    "set exactly one of literal or reference",
  );
export type BindingValue = z.infer<typeof bindingValue>;

/** A parameter binding: a single value or an array of values. */
export const paramBinding = z
  .strictObject({
    /** The single value. */
    value: bindingValue.optional(),
    /** Several values (for multi-value parameters). */
    arrayValue: z.array(bindingValue).optional(),
  })
  .refine((b) => !(b.value !== undefined && b.arrayValue !== undefined), "set value or arrayValue, not both");
export type ParamBinding = z.infer<typeof paramBinding>;

/** EngineParamBindingValueV2 as the API answers it. */
export interface ApiBindingValue {
  literal?: string;
  reference?: string;
  label?: string;
}
/** EngineParamBindingV2 as the API answers it. */
export interface ApiBinding {
  value?: ApiBindingValue;
  array_value?: ApiBindingValue[];
}

export function bindingValuePayload(v: BindingValue): ApiBindingValue {
  return v.literal !== undefined ? { literal: v.literal } : { reference: v.reference };
}

export function bindingPayload(b: ParamBinding): ApiBinding {
  return {
    ...(b.value ? { value: bindingValuePayload(b.value) } : {}),
    ...(b.arrayValue ? { array_value: b.arrayValue.map(bindingValuePayload) } : {}),
  };
}

/** Rule "canonical JSON literals": keep the declared literal text when the live one is the same JSON. */
function valueFromApi(live: ApiBindingValue, declared: BindingValue | undefined): BindingValue {
  if (live.literal !== undefined) return { literal: keepDeclaredJson(live.literal, declared?.literal) };
  return { reference: live.reference };
}

export function bindingFromApi(live: ApiBinding, declared: ParamBinding | undefined): ParamBinding {
  return {
    ...(live.value ? { value: valueFromApi(live.value, declared?.value) } : {}),
    ...(live.array_value
      ? { arrayValue: live.array_value.map((v, i) => valueFromApi(v, declared?.arrayValue?.[i])) }
      : {}),
  };
}

/** A binding with neither a value nor any array entry carries nothing. */
export function isEmptyBinding(b: ApiBinding | ParamBinding): boolean {
  const array = "arrayValue" in b ? b.arrayValue : (b as ApiBinding).array_value;
  return (
    (b.value === undefined || b.value === null) &&
    (array === undefined || array === null || array.length === 0)
  );
}

/**
 * Rule "padded param bindings": the API pads binding lists with trailing empty bindings; drop them
 * (and keep the ones the user wrote: rule "declared padding").
 */
export function bindingsFromApi(
  live: ApiBinding[] | undefined,
  declared: ParamBinding[] | undefined,
): ParamBinding[] {
  const trimmed = trimTrailingEmpty(live ?? [], isEmptyBinding) ?? [];
  const mapped = trimmed.map((b, i) => bindingFromApi(b, declared?.[i]));
  // Rule "declared padding": a declared trailing empty binding (dropped by the API) reads back as written.
  return keepDeclaredPadding(mapped, declared, isEmptyBinding) ?? [];
}

/** Canonical form of a binding for diffs: JSON literals by meaning. */
export function canonicalBinding(b: ParamBinding): ParamBinding {
  const canon = (v: BindingValue): BindingValue =>
    v.literal !== undefined ? { literal: canonicalJsonLiteral(v.literal) } : { reference: v.reference };
  return {
    ...(b.value ? { value: canon(b.value) } : {}),
    ...(b.arrayValue ? { arrayValue: b.arrayValue.map(canon) } : {}),
  };
}

// ---------- conditions ----------

/**
 * Operation spellings the API treats as the same and may answer with either one (rule "operation
 * aliases": the declared spelling is kept).
 */
export const OPERATION_ALIASES: ReadonlyArray<readonly string[]> = [["one_of", "contains_one_of"]];

/** One test: a subject, an operation and the operation's parameters. */
export const condition = z.strictObject({
  /** What is tested: a reference into the scope, e.g. `alert.title` or `incident.severity`. */
  subject: z.string().min(1, "must not be empty"),
  /** The operation, e.g. `one_of`, `is_set`, `contains`. */
  operation: z.string().min(1, "must not be empty"),
  /** The operation's parameters. */
  paramBindings: z.array(paramBinding).default([]),
});
export type Condition = z.infer<typeof condition>;

/** All conditions of a group must hold; any one group of a list is enough. */
export const conditionGroup = z.strictObject({
  /** Conditions that must all hold. */
  conditions: z.array(condition).min(1, "a condition group needs at least one condition"),
});
export type ConditionGroup = z.infer<typeof conditionGroup>;

interface ApiCondition {
  subject: string | { reference: string; label?: string };
  operation: string | { value: string; label?: string };
  param_bindings: ApiBinding[];
}
interface ApiConditionGroup {
  conditions: ApiCondition[];
}

export function conditionGroupsPayload(groups: ConditionGroup[] | undefined): ApiConditionGroup[] {
  return (groups ?? []).map((g) => ({
    conditions: g.conditions.map((c) => ({
      subject: c.subject,
      operation: c.operation,
      param_bindings: c.paramBindings.map(bindingPayload),
    })),
  }));
}

export function conditionGroupsFromApi(
  live: ApiConditionGroup[] | undefined,
  declared: ConditionGroup[] | undefined,
): ConditionGroup[] {
  return (live ?? []).map((g, gi) => ({
    conditions: g.conditions.map((c, ci) => {
      const mine = declared?.[gi]?.conditions[ci];
      const operation = typeof c.operation === "string" ? c.operation : c.operation.value;
      return {
        subject: typeof c.subject === "string" ? c.subject : c.subject.reference,
        operation: keepDeclaredAlias(operation, mine?.operation, OPERATION_ALIASES) ?? operation,
        paramBindings: bindingsFromApi(c.param_bindings, mine?.paramBindings),
      };
    }),
  }));
}

export function canonicalConditionGroups(groups: ConditionGroup[] | undefined): unknown {
  return (groups ?? []).map((g) => ({
    conditions: g.conditions.map((c) => ({
      subject: c.subject,
      operation: OPERATION_ALIASES.find((a) => a.includes(c.operation))?.[0] ?? c.operation,
      paramBindings: (trimTrailingEmpty(c.paramBindings ?? [], isEmptyBinding) ?? []).map(canonicalBinding),
    })),
  }));
}

// ---------- expressions ----------

/** What an expression step answers. */
export const resultType = z.strictObject({
  /** Whether the result is a list. */
  array: z.boolean(),
  /** Engine type of the result, e.g. `IncidentSeverity` or `CatalogEntry["…"]`. */
  type: z.string().min(1),
});
const returns = resultType;

/** The operations an expression applies. */
export const expressionOperationType = z.enum([
  "branches",
  "cast",
  "concatenate",
  "count",
  "filter",
  "first",
  "max",
  "min",
  "navigate",
  "parse",
  "random",
  "sum",
]);

/** A branch of a `branches` operation: the first branch whose condition groups hold gives the result. */
export const expressionBranch = z.strictObject({
  /** Any one group must hold. */
  conditionGroups: z.array(conditionGroup),
  /** The result when it holds. */
  result: paramBinding,
});

/** A reference into the scope (for `concatenate` and `navigate`). */
export const scopeReference = z.strictObject({ reference: z.string().min(1) });

/** One operation of an expression; set the field named by `operationType`. */
export const expressionOperation = z.strictObject({
  /** Which operation this is. */
  operationType: expressionOperationType,
  /** For `branches`: the branches and the result type. */
  branches: z.strictObject({ branches: z.array(expressionBranch), returns }).optional(),
  /** For `cast`: the type to cast to. */
  cast: z.strictObject({ returns }).optional(),
  /** For `concatenate`: the reference to concatenate with. */
  concatenate: scopeReference.optional(),
  /** For `filter`: the condition groups to filter by. */
  filter: z.strictObject({ conditionGroups: z.array(conditionGroup) }).optional(),
  /** For `navigate`: the reference to navigate to. */
  navigate: scopeReference.optional(),
  /** For `parse`: the source and result type. */
  parse: z.strictObject({ source: z.string().min(1), returns }).optional(),
});

/** An expression: a root reference and the operations applied to it, referred to as `expressions["<reference>"]`. */
export const expression = z.strictObject({
  /** Human readable label. */
  label: z.string().min(1),
  /** Short id used to refer to the expression (`expressions["<reference>"]`). */
  reference: z.string().min(1),
  /** Where the expression starts, e.g. `incident.custom_field["…"]`. */
  rootReference: z.string().min(1),
  /** Operations applied in order. */
  operations: z.array(expressionOperation),
  /** Result when no branch matches. */
  elseBranch: z.strictObject({ result: paramBinding }).optional(),
});
export type Expression = z.infer<typeof expression>;
type ExpressionOperation = z.infer<typeof expressionOperation>;

export function expressionsPayload(expressions: Expression[] | undefined): unknown[] {
  return (expressions ?? []).map((e) => ({
    label: e.label,
    reference: e.reference,
    root_reference: e.rootReference,
    operations: e.operations.map(operationPayload),
    ...(e.elseBranch ? { else_branch: { result: bindingPayload(e.elseBranch.result) } } : {}),
  }));
}

function operationPayload(op: ExpressionOperation): unknown {
  return {
    operation_type: op.operationType,
    ...(op.branches
      ? {
          branches: {
            branches: op.branches.branches.map((b) => ({
              condition_groups: conditionGroupsPayload(b.conditionGroups),
              result: bindingPayload(b.result),
            })),
            returns: op.branches.returns,
          },
        }
      : {}),
    ...(op.cast ? { cast: { returns: op.cast.returns } } : {}),
    ...(op.concatenate ? { concatenate: { reference: op.concatenate.reference } } : {}),
    ...(op.filter ? { filter: { condition_groups: conditionGroupsPayload(op.filter.conditionGroups) } } : {}),
    ...(op.navigate ? { navigate: { reference: op.navigate.reference } } : {}),
    ...(op.parse ? { parse: { source: op.parse.source, returns: op.parse.returns } } : {}),
  };
}

export function expressionsFromApi(
  live: any[] | undefined,
  declared: Expression[] | undefined,
): Expression[] {
  const list = (live ?? []).map((e: any) => {
    // Rule "unordered sets": expressions are matched by reference, not position.
    const mine = declared?.find((d) => d.reference === e.reference);
    return {
      label: e.label,
      reference: e.reference,
      rootReference: e.root_reference,
      operations: (e.operations ?? []).map((op: any, i: number) => operationFromApi(op, mine?.operations[i])),
      ...(e.else_branch
        ? { elseBranch: { result: bindingFromApi(e.else_branch.result, mine?.elseBranch?.result) } }
        : {}),
    } as Expression;
  });
  // Answer in the declared order when the same set of references came back.
  if (declared) {
    const order = new Map(declared.map((d, i) => [d.reference, i]));
    list.sort((a, b) => (order.get(a.reference) ?? 1e9) - (order.get(b.reference) ?? 1e9));
  }
  return list;
}

function operationFromApi(op: any, mine: ExpressionOperation | undefined): ExpressionOperation {
  return {
    operationType: op.operation_type,
    ...(op.branches
      ? {
          branches: {
            branches: op.branches.branches.map((b: any, i: number) => ({
              conditionGroups: conditionGroupsFromApi(
                b.condition_groups,
                mine?.branches?.branches[i]?.conditionGroups,
              ),
              result: bindingFromApi(b.result, mine?.branches?.branches[i]?.result),
            })),
            returns: { array: op.branches.returns.array, type: op.branches.returns.type },
          },
        }
      : {}),
    // Rule "write-only operation options": the API never answers `cast` or `concatenate` options
    // (ExpressionOperationV2 has no such fields). A cast's target is the operation's `returns`; a
    // concatenation's reference is kept as declared.
    ...(op.operation_type === "cast" && op.returns
      ? { cast: { returns: { array: op.returns.array, type: op.returns.type } } }
      : mine?.cast
        ? { cast: mine.cast }
        : {}),
    ...(op.concatenate
      ? { concatenate: { reference: op.concatenate.reference } }
      : mine?.concatenate
        ? { concatenate: mine.concatenate }
        : {}),
    ...(op.filter
      ? {
          filter: {
            conditionGroups: conditionGroupsFromApi(
              op.filter.condition_groups,
              mine?.filter?.conditionGroups,
            ),
          },
        }
      : {}),
    ...(op.navigate ? { navigate: { reference: op.navigate.reference } } : {}),
    ...(op.parse
      ? {
          parse: {
            source: op.parse.source,
            returns: { array: op.parse.returns.array, type: op.parse.returns.type },
          },
        }
      : {}),
  };
}

/** Canonical form for diffs: expressions as a set keyed by reference. */
export function canonicalExpressions(expressions: Expression[] | undefined): unknown {
  return [...(expressions ?? [])].sort((a, b) => a.reference.localeCompare(b.reference));
}
