/**
 * Emulator: read-back of the API's shared "engine" blocks (parameter bindings, conditions and
 * condition groups, expressions), used by the alert source, alert route, escalation path and workflow
 * families. Converts what a client wrote (payload shapes: `subject`/`operation` strings, bare
 * bindings) into the response shapes (`ConditionV2`/`V3`, `EngineParamBindingV2`/`V3`, `ExpressionV2`/`V3`)
 * and reproduces the real API's read-back quirks, so that the provider's normalisation rules are
 * exercised by every test that reads through the emulator:
 *
 * - "operation aliases" (TF #289): `one_of` is answered as `contains_one_of` (and the reverse);
 * - "canonical JSON literals" (TF #242): a JSON literal is stored parsed and re-encoded on read
 *   (keys sorted, `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026`);
 * - "padded param bindings" (TF #205): binding lists come back with trailing empty bindings;
 * - "unordered sets": expressions come back in another order (reversed);
 * - "private channels as catalog ids" (TF #237): a literal that is the id of a private Slack
 *   channel (`C0123ABCD`, or `T0123ABCD/C0123ABCD`) is answered as the id of the channel's catalog
 *   entry (a ULID the catalog does not show). The emulator's Slack workspace has the private
 *   channels in PRIVATE_SLACK_CHANNELS; other channel ids are answered as written.
 *
 * Each quirk can be switched off per call (`EngineQuirks`), e.g. to build an exact echo.
 * The two API versions share these shapes field for field, so one renderer serves V2 and V3.
 */

type Json = any;

/** A 422 problem: the API field path (`condition_groups.0.conditions.1.subject`) and a message. */
export interface EngineProblem {
  field: string;
  message: string;
}

/**
 * Which read-back quirks to reproduce (every one defaults to on), and which API version's response
 * shapes to answer with (`v2` default: binding values carry a `label`; `v3` values do not).
 */
export interface EngineQuirks {
  /** Response shapes of this API version: `v2` (default) or `v3`. */
  version?: "v2" | "v3";
  /** Answer `contains_one_of` for `one_of` and the reverse. */
  aliasOperations?: boolean;
  /** Re-encode JSON literals (sorted keys, HTML-escaped `<`, `>`, `&`). */
  reencodeJson?: boolean;
  /** Pad condition param binding lists with trailing empty bindings. */
  padBindings?: boolean;
  /** Return expressions in another order than written. */
  reorderExpressions?: boolean;
}

const ON: Required<EngineQuirks> = {
  version: "v2",
  aliasOperations: true,
  reencodeJson: true,
  padBindings: true,
  reorderExpressions: true,
};

function quirks(q: EngineQuirks | undefined): Required<EngineQuirks> {
  return { ...ON, ...(q ?? {}) };
}

/** Operation spellings the API treats as one; the emulator answers with the other spelling. */
export const OPERATION_ALIAS: Readonly<Record<string, string>> = {
  one_of: "contains_one_of",
  contains_one_of: "one_of",
};

/** The trailing empty bindings the API appends to a binding list (TF #205). */
export const BINDING_PADDING: readonly Json[] = [{}, { array_value: [] }];

/**
 * Quirk "canonical JSON literals": a literal that parses as a JSON object or array is re-encoded
 * with sorted keys and `<`, `>`, `&` escaped as `\u003c`, `\u003e`, `\u0026` (Go's encoder). Other
 * text is returned unchanged.
 */
export function reencodeJson(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return text;
  try {
    return JSON.stringify(sortKeys(JSON.parse(trimmed)))
      .replace(/</g, "\\u003c")
      .replace(/>/g, "\\u003e")
      .replace(/&/g, "\\u0026");
  } catch {
    return text;
  }
}

function sortKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  }
  return v;
}

/** A human label the API would show for a reference (`incident.severity` → `Severity`). */
export function humanLabel(reference: string): string {
  const last = String(reference).split(".").pop() ?? String(reference);
  const words = last.replace(/[_[\]"]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A Slack channel id, alone or after its workspace id. */
export const SLACK_CHANNEL = /^(T[A-Z0-9]{2,}\/)?[CG][A-Z0-9]{6,}$/;

/** The private channels of the emulator's Slack workspace (seeded, like its users and teams). */
export const PRIVATE_SLACK_CHANNELS: ReadonlySet<string> = new Set([
  "C0PRIVATE42",
  "C0SECURITY",
  "G0INCIDENTS",
]);

/** A private Slack channel id of the emulator's workspace, alone or after its workspace id. */
function isPrivateSlackChannel(literal: string): boolean {
  return SLACK_CHANNEL.test(literal) && PRIVATE_SLACK_CHANNELS.has(literal.split("/").pop()!);
}

/** The (stable) catalog entry id the API answers for a Slack channel id: ULID-shaped. */
export function catalogIdOf(channel: string): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  let h = 2166136261;
  let out = "01K";
  for (let i = 0; out.length < 26; i++) {
    h = Math.imul(h ^ channel.charCodeAt(i % channel.length) ^ i, 16777619) >>> 0;
    out += alphabet[h % 32];
  }
  return out;
}

/**
 * `EngineParamBindingValueV2` (with its `label`) or `EngineParamBindingValueV3` (without) for a
 * written value; JSON literals re-encoded.
 */
export function renderBindingValue(v: Json, q?: EngineQuirks): Json {
  const { reencodeJson: reencode, version } = quirks(q);
  const labelled = version === "v2";
  if (v?.literal !== undefined) {
    const literal = isPrivateSlackChannel(String(v.literal))
      ? catalogIdOf(String(v.literal))
      : reencode
        ? reencodeJson(String(v.literal))
        : v.literal;
    return labelled ? { literal, label: String(v.literal) } : { literal };
  }
  return labelled
    ? { reference: v?.reference, label: humanLabel(v?.reference ?? "") }
    : { reference: v?.reference };
}

/** `EngineParamBindingV2` for one written binding (`value` and/or `array_value`). */
export function renderBinding(b: Json, q?: EngineQuirks): Json {
  const out: Json = {};
  if (b?.value) out.value = renderBindingValue(b.value, q);
  if (Array.isArray(b?.array_value))
    out.array_value = b.array_value.map((v: Json) => renderBindingValue(v, q));
  return out;
}

/**
 * A written binding list as read back: each binding rendered, then (quirk "padded param bindings",
 * unless `padBindings: false`) the trailing empty bindings the API appends.
 */
export function renderBindings(list: Json[] | undefined, q?: EngineQuirks): Json[] {
  const rendered = (list ?? []).map((b) => renderBinding(b, q));
  return quirks(q).padBindings ? [...rendered, ...BINDING_PADDING.map((p) => ({ ...p }))] : rendered;
}

/**
 * `ConditionV2` for a written `ConditionPayloadV2`: subject `{reference, label}`, operation
 * `{value, label}` (aliased, quirk "operation aliases"), param bindings with labels (padded).
 */
export function renderCondition(c: Json, q?: EngineQuirks): Json {
  const { aliasOperations } = quirks(q);
  const op = String(c?.operation ?? "");
  return {
    subject: { reference: c?.subject, label: humanLabel(c?.subject ?? "") },
    operation: { value: aliasOperations ? (OPERATION_ALIAS[op] ?? op) : op, label: humanLabel(op) },
    param_bindings: renderBindings(c?.param_bindings, q),
  };
}

/** `ConditionGroupV2[]` for written condition groups (absent → `[]`). */
export function renderConditionGroups(groups: Json[] | undefined, q?: EngineQuirks): Json[] {
  return (groups ?? []).map((g) => ({
    conditions: (g?.conditions ?? []).map((c: Json) => renderCondition(c, q)),
  }));
}

/** `ExpressionV2` for one written `ExpressionPayloadV2` (adds `returns`, navigate labels). */
export function renderExpression(e: Json, q?: EngineQuirks): Json {
  const fallback = { array: false, type: "String" };
  const ops: Json[] = (e?.operations ?? []).map((op: Json) => {
    const out: Json = {
      operation_type: op.operation_type,
      returns: op.branches?.returns ?? op.parse?.returns ?? op.cast?.returns ?? fallback,
    };
    if (op.branches) {
      out.branches = {
        branches: (op.branches.branches ?? []).map((b: Json) => ({
          condition_groups: renderConditionGroups(b.condition_groups, q),
          result: renderBinding(b.result, q),
        })),
        returns: op.branches.returns,
      };
    }
    if (op.filter) out.filter = { condition_groups: renderConditionGroups(op.filter.condition_groups, q) };
    if (op.navigate) {
      out.navigate = { reference: op.navigate.reference, reference_label: humanLabel(op.navigate.reference) };
    }
    if (op.parse) out.parse = { source: op.parse.source, returns: op.parse.returns };
    // `cast` and `concatenate` options are write-only: the read shape (ExpressionOperationV2) has
    // no field for them; a cast's target type shows only as the operation's `returns`.
    return out;
  });
  const last = ops[ops.length - 1];
  const out: Json = {
    label: e?.label,
    reference: e?.reference,
    root_reference: e?.root_reference,
    returns: last?.returns ?? fallback,
    operations: ops,
  };
  if (e?.else_branch) out.else_branch = { result: renderBinding(e.else_branch.result, q) };
  return out;
}

/** `ExpressionV2[]` for written expressions, in another order (quirk "unordered sets"). */
export function renderExpressions(expressions: Json[] | undefined, q?: EngineQuirks): Json[] {
  const list = (expressions ?? []).map((e) => renderExpression(e, q));
  return quirks(q).reorderExpressions ? list.reverse() : list;
}

/**
 * Behaviour checks on written engine blocks beyond the reference shapes (which the framework
 * validates first): each binding value sets exactly one of literal / reference; subjects and
 * operations are non-empty; expression references are unique. `prefix` is the API path of the
 * block (e.g. `condition_groups`), used to build `source.field`.
 */
export function conditionGroupProblems(groups: Json, prefix: string): EngineProblem[] {
  const problems: EngineProblem[] = [];
  (Array.isArray(groups) ? groups : []).forEach((g: Json, gi: number) => {
    (Array.isArray(g?.conditions) ? g.conditions : []).forEach((c: Json, ci: number) => {
      const at = `${prefix}.${gi}.conditions.${ci}`;
      if (typeof c?.subject !== "string" || c.subject === "") {
        problems.push({ field: `${at}.subject`, message: "must not be empty" });
      }
      if (typeof c?.operation !== "string" || c.operation === "") {
        problems.push({ field: `${at}.operation`, message: "must not be empty" });
      }
      problems.push(...bindingProblems(c?.param_bindings, `${at}.param_bindings`));
    });
  });
  return problems;
}

/** Checks a binding list: every value sets exactly one of `literal` / `reference`. */
export function bindingProblems(bindings: Json, prefix: string): EngineProblem[] {
  const problems: EngineProblem[] = [];
  (Array.isArray(bindings) ? bindings : []).forEach((b: Json, i: number) => {
    const values = [b?.value, ...(Array.isArray(b?.array_value) ? b.array_value : [])];
    for (const v of values) {
      if (v && (v.literal === undefined) === (v.reference === undefined)) {
        problems.push({
          field: `${prefix}.${i}`,
          message: "a binding value sets exactly one of literal or reference",
        });
        break;
      }
    }
  });
  return problems;
}

/** Checks written expressions: unique references, condition groups of branches and filters. */
export function expressionProblems(expressions: Json, prefix: string): EngineProblem[] {
  const problems: EngineProblem[] = [];
  const seen = new Set<string>();
  (Array.isArray(expressions) ? expressions : []).forEach((e: Json, i: number) => {
    if (typeof e?.reference === "string") {
      if (seen.has(e.reference)) {
        problems.push({ field: `${prefix}.${i}.reference`, message: "expression references must be unique" });
      }
      seen.add(e.reference);
    }
    (Array.isArray(e?.operations) ? e.operations : []).forEach((op: Json, j: number) => {
      const at = `${prefix}.${i}.operations.${j}`;
      if (op?.filter)
        problems.push(...conditionGroupProblems(op.filter.condition_groups, `${at}.filter.condition_groups`));
      (Array.isArray(op?.branches?.branches) ? op.branches.branches : []).forEach((b: Json, k: number) => {
        problems.push(
          ...conditionGroupProblems(b?.condition_groups, `${at}.branches.branches.${k}.condition_groups`),
        );
      });
    });
  });
  return problems;
}
