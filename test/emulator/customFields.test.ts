/**
 * Custom fields (v2) and custom field options (v1): CRUD, server-side rules, and every response
 * checked against its reference type.
 */
import { expectErrorBody, expectShape, startTestEmulator, type TestEmulator } from "../support/emulator";

let emu: TestEmulator;

beforeEach(async () => {
  emu = await startTestEmulator();
});
afterEach(async () => {
  expect(emu.responseProblems).toEqual([]);
  await emu.dispose();
});

async function createField(extra: Record<string, unknown> = {}) {
  const r = await emu.call("POST", "/v2/custom_fields", {
    body: { name: "Affected team", description: "Which team?", field_type: "single_select", ...extra },
  });
  expect(r.status).toBe(201);
  return r.body.custom_field;
}

describe("custom fields v2", () => {
  test("create / show / list / update / delete with reference shapes", async () => {
    const created = await emu.call("POST", "/v2/custom_fields", {
      body: {
        name: "Affected team",
        description: "Which team?",
        field_type: "single_select",
        catalog_type_id: "01CATTYPE",
        fixed_filter: { catalog_attribute_id: "attr", values: ["e1"] },
      },
    });
    expect(created.status).toBe(201);
    expectShape("CustomFieldsCreateResultV2", created.body);
    const f = created.body.custom_field;
    expect(f).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      name: "Affected team",
      description: "Which team?",
      field_type: "single_select",
      catalog_type_id: "01CATTYPE",
      fixed_filter: { catalog_attribute_id: "attr", values: ["e1"] },
      created_at: new Date(emu.time()).toISOString(),
      updated_at: new Date(emu.time()).toISOString(),
    });

    const shown = await emu.call("GET", `/v2/custom_fields/${f.id}`);
    expectShape("CustomFieldsShowResultV2", shown.body);
    expect(shown.body.custom_field).toEqual(f);

    const list = await emu.call("GET", "/v2/custom_fields");
    expectShape("CustomFieldsListResultV2", list.body);
    expect(list.body.custom_fields).toEqual([f]);

    emu.tick(60_000);
    const updated = await emu.call("PUT", `/v2/custom_fields/${f.id}`, {
      body: { name: "Team", description: "Changed", field_type: "text", helptext_catalog_attribute_id: "h" },
    });
    expect(updated.status).toBe(200);
    expectShape("CustomFieldsUpdateResultV2", updated.body);
    expect(updated.body.custom_field).toEqual({
      id: f.id,
      name: "Team",
      description: "Changed",
      // field_type and catalog_type_id are create-only: kept
      field_type: "single_select",
      catalog_type_id: "01CATTYPE",
      // full PUT: fixed_filter omitted → cleared
      helptext_catalog_attribute_id: "h",
      created_at: f.created_at,
      updated_at: new Date(emu.time()).toISOString(),
    });

    const del = await emu.call("DELETE", `/v2/custom_fields/${f.id}`);
    expect(del.status).toBe(204);
    expect((await emu.call("GET", "/v2/custom_fields")).body.custom_fields).toEqual([]);
  });

  test("ids are server-generated and increase in creation order", async () => {
    const a = await createField({ name: "a" });
    const b = await createField({ name: "b", id: "01MINE" });
    expect(b.id).not.toBe("01MINE");
    expect(b.id > a.id).toBe(true);
  });

  test("names are unique and not blank", async () => {
    const f = await createField();
    expectErrorBody(
      await emu.call("POST", "/v2/custom_fields", {
        body: { name: "Affected team", description: "", field_type: "text" },
      }),
      422,
      "validation_error",
      "invalid_value",
      "name",
    );
    expectErrorBody(
      await emu.call("POST", "/v2/custom_fields", {
        body: { name: "  ", description: "", field_type: "text" },
      }),
      422,
      "validation_error",
      "invalid_value",
      "name",
    );
    const other = await createField({ name: "Other" });
    expectErrorBody(
      await emu.call("PUT", `/v2/custom_fields/${other.id}`, {
        body: { name: "Affected team", description: "" },
      }),
      422,
      "validation_error",
      "invalid_value",
      "name",
    );
    // Keeping its own name is fine.
    expect(
      (await emu.call("PUT", `/v2/custom_fields/${f.id}`, { body: { name: f.name, description: "x" } }))
        .status,
    ).toBe(200);
  });

  test("update requires name and description", async () => {
    const f = await createField();
    const r = await emu.call("PUT", `/v2/custom_fields/${f.id}`, { body: { name: "x" } });
    expectErrorBody(r, 422, "validation_error", "is_required", "description");
  });
});

describe("custom field options v1", () => {
  test("create (sort_key defaults to 1000) / show / list / update / delete", async () => {
    const f = await createField();
    const created = await emu.call("POST", "/v1/custom_field_options", {
      body: { custom_field_id: f.id, value: "Payments" },
    });
    expect(created.status).toBe(201);
    expectShape("CustomFieldOptionsCreateResultV1", created.body);
    const o = created.body.custom_field_option;
    expect(o).toEqual({ id: expect.any(String), custom_field_id: f.id, value: "Payments", sort_key: 1000 });

    const shown = await emu.call("GET", `/v1/custom_field_options/${o.id}`);
    expectShape("CustomFieldOptionsShowResultV1", shown.body);

    const list = await emu.call("GET", `/v1/custom_field_options?custom_field_id=${f.id}`);
    expectShape("CustomFieldOptionsListResultV1", list.body);
    expect(list.body).toEqual({ custom_field_options: [o], pagination_meta: { page_size: 25 } });

    const updated = await emu.call("PUT", `/v1/custom_field_options/${o.id}`, {
      body: { value: "Billing", sort_key: 10, custom_field_id: "ignored" },
    });
    expectShape("CustomFieldOptionsUpdateResultV1", updated.body);
    expect(updated.body.custom_field_option).toEqual({
      id: o.id,
      custom_field_id: f.id,
      value: "Billing",
      sort_key: 10,
    });

    expect((await emu.call("DELETE", `/v1/custom_field_options/${o.id}`)).status).toBe(204);
    expectErrorBody(await emu.call("GET", `/v1/custom_field_options/${o.id}`), 404, "not_found");
  });

  test("update needs both sort_key and value", async () => {
    const f = await createField();
    const o = (
      await emu.call("POST", "/v1/custom_field_options", { body: { custom_field_id: f.id, value: "A" } })
    ).body.custom_field_option;
    const r = await emu.call("PUT", `/v1/custom_field_options/${o.id}`, { body: { value: "B" } });
    expectErrorBody(r, 422, "validation_error", "is_required", "sort_key");
    const r2 = await emu.call("PUT", `/v1/custom_field_options/${o.id}`, { body: { sort_key: 1 } });
    expectErrorBody(r2, 422, "validation_error", "is_required", "value");
  });

  test.each([
    [" leading", "start or end with whitespace"],
    ["trailing ", "start or end with whitespace"],
    ["tab\there", "tabs or newlines"],
    ["new\nline", "tabs or newlines"],
    ["", "must not be empty"],
  ])("value %j is rejected (422 on value)", async (value, message) => {
    const f = await createField();
    const r = await emu.call("POST", "/v1/custom_field_options", { body: { custom_field_id: f.id, value } });
    expectErrorBody(r, 422, "validation_error", "invalid_value", "value");
    expect(r.body.errors[0].message).toContain(message);
  });

  test("values are unique within a field, not across fields", async () => {
    const a = await createField({ name: "A" });
    const b = await createField({ name: "B" });
    expect(
      (await emu.call("POST", "/v1/custom_field_options", { body: { custom_field_id: a.id, value: "X" } }))
        .status,
    ).toBe(201);
    expect(
      (await emu.call("POST", "/v1/custom_field_options", { body: { custom_field_id: b.id, value: "X" } }))
        .status,
    ).toBe(201);
    expectErrorBody(
      await emu.call("POST", "/v1/custom_field_options", { body: { custom_field_id: a.id, value: "X" } }),
      422,
      "validation_error",
      "invalid_value",
      "value",
    );
  });

  test("the field must exist (400) and be a select field (422 on custom_field_id)", async () => {
    expectErrorBody(
      await emu.call("POST", "/v1/custom_field_options", { body: { custom_field_id: "01NOPE", value: "X" } }),
      400,
      "invalid_request_error",
      "invalid_reference",
    );
    expectErrorBody(
      await emu.call("GET", "/v1/custom_field_options?custom_field_id=01NOPE"),
      400,
      "invalid_request_error",
    );
    const text = await createField({ name: "Notes", field_type: "text" });
    expectErrorBody(
      await emu.call("POST", "/v1/custom_field_options", { body: { custom_field_id: text.id, value: "X" } }),
      422,
      "validation_error",
      "invalid_value",
      "custom_field_id",
    );
  });

  test("pagination: page_size and after, following pagination_meta.after to the end", async () => {
    const f = await createField();
    const values = Array.from({ length: 7 }, (_, i) => `Option ${i}`);
    for (const value of values) {
      await emu.call("POST", "/v1/custom_field_options", { body: { custom_field_id: f.id, value } });
    }
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const r = await emu.call(
        "GET",
        `/v1/custom_field_options?custom_field_id=${f.id}&page_size=3${after ? `&after=${after}` : ""}`,
      );
      expectShape("CustomFieldOptionsListResultV1", r.body);
      expect(r.body.pagination_meta.page_size).toBe(3);
      seen.push(...r.body.custom_field_options.map((o: any) => o.value));
      after = r.body.pagination_meta.after;
      pages++;
    } while (after);
    expect(seen).toEqual(values);
    expect(pages).toBe(3);
  });

  test("after an option that was deleted meanwhile still continues the list", async () => {
    const f = await createField();
    const ids: string[] = [];
    for (const value of ["a", "b", "c", "d"]) {
      ids.push(
        (await emu.call("POST", "/v1/custom_field_options", { body: { custom_field_id: f.id, value } })).body
          .custom_field_option.id,
      );
    }
    await emu.call("DELETE", `/v1/custom_field_options/${ids[1]}`);
    const r = await emu.call("GET", `/v1/custom_field_options?custom_field_id=${f.id}&after=${ids[1]}`);
    expect(r.body.custom_field_options.map((o: any) => o.value)).toEqual(["c", "d"]);
  });

  test("deleting a custom field deletes its options", async () => {
    const f = await createField();
    const keep = await createField({ name: "Keep" });
    const o = (
      await emu.call("POST", "/v1/custom_field_options", { body: { custom_field_id: f.id, value: "X" } })
    ).body.custom_field_option;
    await emu.call("POST", "/v1/custom_field_options", { body: { custom_field_id: keep.id, value: "Y" } });
    expect((await emu.call("DELETE", `/v2/custom_fields/${f.id}`)).status).toBe(204);
    expectErrorBody(await emu.call("GET", `/v1/custom_field_options/${o.id}`), 404, "not_found");
    expect(emu.store.collection("custom_field_options").size).toBe(1);
  });
});

describe("roles", () => {
  test("manage_settings writes, viewer reads, global_access does everything", async () => {
    const settings = await emu.createApiKey("settings", ["manage_settings"]);
    const viewer = await emu.createApiKey("viewer", ["viewer"]);
    const f = await emu.call("POST", "/v2/custom_fields", {
      token: settings,
      body: { name: "By settings", description: "", field_type: "multi_select" },
    });
    expect(f.status).toBe(201);
    const id = f.body.custom_field.id;
    expect((await emu.call("GET", `/v2/custom_fields/${id}`, { token: settings })).status).toBe(200);
    expect((await emu.call("GET", `/v2/custom_fields/${id}`, { token: viewer })).status).toBe(200);
    expect(
      (await emu.call("GET", `/v1/custom_field_options?custom_field_id=${id}`, { token: viewer })).status,
    ).toBe(200);
    expectErrorBody(
      await emu.call("POST", "/v1/custom_field_options", {
        token: viewer,
        body: { custom_field_id: id, value: "x" },
      }),
      403,
      "resource_forbidden",
    );
    expectErrorBody(
      await emu.call("DELETE", `/v2/custom_fields/${id}`, { token: viewer }),
      403,
      "resource_forbidden",
    );
    expect((await emu.call("DELETE", `/v2/custom_fields/${id}`, { token: settings })).status).toBe(204);
  });
});
