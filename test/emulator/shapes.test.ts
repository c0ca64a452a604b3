/**
 * The generic validator over reference.json (emulator/reference.ts), usable by any test to check a
 * request or response object against a reference type.
 */
import { assertShape, checkResponse, refOperation, refType, validateAgainst } from "../../emulator";
import { ROLE_DESCRIPTIONS, TEAM_ROLE_DESCRIPTIONS } from "../../emulator/roles";
import { parseQuery, reference } from "../../emulator/shapes";

const node = (extra: Record<string, unknown>) => ({ id: "n1", type: "level", ...extra });

describe("validateAgainst (request mode)", () => {
  test("a valid payload has no problems", () => {
    expect(
      validateAgainst("CustomFieldsCreatePayloadV2", { name: "a", description: "b", field_type: "text" }),
    ).toEqual([]);
  });

  test("deep paths: path.0.if_else.else_path.0.notify_channel", () => {
    const problems = validateAgainst("EscalationsCreatePathPayloadV2", {
      name: "p",
      path: [
        node({
          type: "if_else",
          if_else: { then_path: [], else_path: [node({ type: "notify_channel", notify_channel: {} })] },
        }),
      ],
    });
    expect(problems).toEqual([
      {
        path: "path.0.if_else.else_path.0.notify_channel.targets",
        code: "is_required",
        message: "is required",
      },
    ]);
  });

  test("a missing required object is reported at its own path", () => {
    const problems = validateAgainst("EscalationsCreatePathPayloadV2", { name: "p" });
    expect(problems).toEqual([{ path: "path", code: "is_required", message: "is required" }]);
  });

  test("enums, also of array items", () => {
    const problems = validateAgainst("APIKeysCreatePayloadV1", {
      name: "k",
      role_names: ["viewer", "root"],
      team_ids: [],
      team_role_names: ["viewer"],
    });
    expect(problems.map((p) => [p.path, p.code])).toEqual([
      ["role_names.1", "invalid_value"],
      ["team_role_names.0", "invalid_value"],
    ]);
  });

  test("scalar types: string, integer, boolean; containers", () => {
    const t = (type: string, value: unknown) =>
      validateAgainst(type, value).map((p) => `${p.path}:${p.code}`);
    expect(t("CustomFieldOptionsUpdatePayloadV1", { value: "v", sort_key: 1.5 })).toEqual([
      "sort_key:invalid_type",
    ]);
    expect(t("CustomFieldOptionsUpdatePayloadV1", { value: "v", sort_key: "1" })).toEqual([
      "sort_key:invalid_type",
    ]);
    expect(t("CustomFieldOptionsUpdatePayloadV1", { value: ["v"], sort_key: 1 })).toEqual([
      "value:invalid_type",
    ]);
    expect(
      t("APIKeysCreatePayloadV1", { name: "k", role_names: "viewer", team_ids: [], team_role_names: [] }),
    ).toEqual(["role_names:invalid_type"]);
    expect(t("ScheduleCreatePayloadV2", { annotations: { a: "x", b: 2 } })).toEqual([
      "annotations.b:invalid_type",
    ]);
    expect(t("ScheduleCreatePayloadV2", { annotations: ["x"] })).toEqual(["annotations:invalid_type"]);
    expect(t("CustomFieldsCreatePayloadV2", null)).toEqual([":invalid_type"]);
  });

  test("maps of objects are validated per value", () => {
    const problems = validateAgainst("CatalogCreateEntryPayloadV3", {
      catalog_type_id: "t",
      name: "n",
      attribute_values: { owner: { value: { literal: 3 } } },
    });
    expect(problems.map((p) => p.path)).toEqual(["attribute_values.owner.value.literal"]);
  });

  test("RFC 3339 date-time strings", () => {
    const field = refType("MaintenanceWindowsCreatePayloadV1")!.fields.find((f) => f.name === "start_at")!;
    expect(field.format).toBe("date-time");
    const ok = validateAgainst("MaintenanceWindowsCreatePayloadV1", { start_at: "2026-01-01T10:00:00Z" });
    expect(ok.find((p) => p.path === "start_at")).toBeUndefined();
    const bad = validateAgainst("MaintenanceWindowsCreatePayloadV1", { start_at: "tomorrow" });
    expect(bad.find((p) => p.path === "start_at")?.code).toBe("invalid_value");
  });

  test("unknown fields are ignored; null counts as absent", () => {
    expect(
      validateAgainst("CustomFieldsCreatePayloadV2", {
        name: "a",
        description: "b",
        field_type: "text",
        surprise: true,
        catalog_type_id: null,
      }),
    ).toEqual([]);
    expect(
      validateAgainst("CustomFieldsCreatePayloadV2", { name: null, description: "b", field_type: "text" }),
    ).toEqual([{ path: "name", code: "is_required", message: "is required" }]);
  });

  test("prefix and unknown types", () => {
    expect(validateAgainst("ScheduleCreatePayloadV2", { name: 1 }, { prefix: "schedule" })[0]!.path).toBe(
      "schedule.name",
    );
    expect(validateAgainst("NoSuchTypeV9", {})[0]!.code).toBe("unknown_type");
  });
});

describe("checkResponse (response mode)", () => {
  const field = {
    id: "01F",
    name: "n",
    description: "d",
    field_type: "text",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };

  test("exact shape passes", () => {
    expect(checkResponse("CustomFieldsShowResultV2", { custom_field: field })).toEqual([]);
  });

  test("unknown fields, nulls and missing required fields are problems", () => {
    const problems = checkResponse("CustomFieldsShowResultV2", {
      custom_field: { ...field, colour: "red", catalog_type_id: null, updated_at: undefined },
    });
    expect(problems.map((p) => `${p.path}:${p.code}`).sort()).toEqual([
      "custom_field.catalog_type_id:invalid_type",
      "custom_field.colour:unknown_field",
      "custom_field.updated_at:is_required",
    ]);
  });

  test("assertShape throws with every problem listed", () => {
    expect(() => assertShape("CustomFieldV2", { id: 1 })).toThrow(
      /id: must be a string.*\n.*name: is required/s,
    );
  });
});

describe("query parameters", () => {
  const op = refOperation("CustomFieldOptionsV1List")!;
  const q = (s: string) => parseQuery(op.query_params!, new URLSearchParams(s));

  test("parsed per type", () => {
    expect(q("custom_field_id=f&page_size=10&after=x")).toEqual({
      values: { custom_field_id: "f", page_size: 10, after: "x" },
      problems: [],
    });
  });

  test("required, integer, page_size ≥ 1", () => {
    expect(q("page_size=-1").problems.map((p) => `${p.path}:${p.code}`)).toEqual([
      "page_size:invalid_value",
      "custom_field_id:is_required",
    ]);
    expect(q("custom_field_id=&page_size=2.5").problems.map((p) => `${p.path}:${p.code}`)).toEqual([
      "page_size:invalid_type",
      "custom_field_id:is_required",
    ]);
  });
});

describe("the reference itself", () => {
  test("every ref names a type; every operation's body and response types exist", () => {
    const ref = reference();
    for (const [name, type] of Object.entries(ref.types)) {
      for (const f of type.fields)
        if (f.ref) expect([name, f.ref, refType(f.ref) !== undefined]).toEqual([name, f.ref, true]);
    }
    for (const family of Object.values(ref.operations)) {
      for (const op of family.operations) {
        if (op.request_body) expect(refType(op.request_body)).toBeDefined();
        for (const t of Object.values(op.responses ?? {})) expect(refType(t)).toBeDefined();
      }
    }
  });

  test("every role name of the reference has a description", () => {
    const fields = refType("APIKeyRoleV1")!.fields;
    for (const r of fields.find((f) => f.name === "name")!.enum!) expect(ROLE_DESCRIPTIONS[r]).toBeDefined();
    const team = refType("APIKeyTeamRoleV1")!.fields.find((f) => f.name === "name")!.enum!;
    for (const r of team) expect(TEAM_ROLE_DESCRIPTIONS[r]).toBeDefined();
  });
});
