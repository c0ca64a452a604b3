/**
 * The seed's behaviour, status by status: authentication, roles, routing, content negotiation, body
 * limits, validation, deletes, and the error body format.
 */
import { expectErrorBody, expectShape, startTestEmulator, type TestEmulator } from "../support/emulator";

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.dispose();
});
afterEach(() => {
  expect(emu.responseProblems).toEqual([]);
});

const FIELD = { name: "Affected team", description: "Which team?", field_type: "single_select" };

describe("401 authentication_error", () => {
  test("no Authorization header: code missing_authorization_material", async () => {
    const r = await emu.call("GET", "/v2/custom_fields", { token: null });
    expectErrorBody(r, 401, "authentication_error", "missing_authorization_material");
    expect(r.headers["x-ratelimit-limit"]).toBeUndefined();
  });

  test("unknown key", async () => {
    const r = await emu.call("GET", "/v2/custom_fields", { token: "not-a-key" });
    expectErrorBody(r, 401, "authentication_error", "authentication_error");
    expect(r.body.errors[0].code).not.toBe("missing_authorization_material");
  });

  test("not a bearer token", async () => {
    const r = await emu.call("GET", "/v2/custom_fields", {
      token: null,
      headers: { authorization: "Basic abc" },
    });
    expectErrorBody(r, 401, "authentication_error");
  });

  test("checked before the route: an unknown path without a key is 401", async () => {
    const r = await emu.call("GET", "/v9/nothing", { token: null });
    expect(r.status).toBe(401);
  });
});

describe("403 resource_forbidden", () => {
  test("a key without the role the operation needs", async () => {
    const viewer = await emu.createApiKey("viewer", ["viewer"]);
    const read = await emu.call("GET", "/v2/custom_fields", { token: viewer });
    expect(read.status).toBe(200);
    const write = await emu.call("POST", "/v2/custom_fields", { token: viewer, body: FIELD });
    expectErrorBody(write, 403, "resource_forbidden", "resource_forbidden");
    expect(write.body.errors[0].message).toContain("manage_settings");
    // Authenticated: rate-limit headers are present on the refusal too.
    expect(write.headers["x-ratelimit-remaining"]).toBeDefined();
    const keys = await emu.call("GET", "/v1/api_keys", { token: viewer });
    expectErrorBody(keys, 403, "resource_forbidden");
  });

  test("a key with no roles cannot read a config family but can call identity", async () => {
    const none = await emu.createApiKey("nothing", []);
    expectErrorBody(await emu.call("GET", "/v2/custom_fields", { token: none }), 403, "resource_forbidden");
    expect((await emu.call("GET", "/v1/identity", { token: none })).status).toBe(200);
  });
});

describe("404 / 405 / 406", () => {
  test("unknown path", async () => {
    const r = await emu.call("GET", "/v2/nothing_here");
    expectErrorBody(r, 404, "not_found", "not_found");
  });

  test("unknown id", async () => {
    expectErrorBody(await emu.call("GET", "/v2/custom_fields/01NOPE"), 404, "not_found");
    expectErrorBody(await emu.call("PUT", "/v2/custom_fields/01NOPE", { body: FIELD }), 404, "not_found");
    expectErrorBody(await emu.call("DELETE", "/v2/custom_fields/01NOPE"), 404, "not_found");
  });

  test("undecodable path is a 404, not a crash", async () => {
    expectErrorBody(await emu.call("GET", "/v2/custom_fields/%E0%A4%A"), 404, "not_found");
  });

  test("known path, wrong method: 405 with Allow", async () => {
    const r = await emu.call("PATCH", "/v2/custom_fields/abc", { body: {} });
    expectErrorBody(r, 405, "method_not_allowed", "method_not_allowed");
    expect(r.headers.allow).toBe("DELETE, GET, PUT");
    const list = await emu.call("DELETE", "/v2/custom_fields");
    expect(list.status).toBe(405);
    expect(list.headers.allow).toBe("GET, POST");
  });

  test.each([
    ["text/html", 406],
    ["application/xml, text/plain", 406],
    ["application/json;q=0, text/html", 406],
    ["*/*;q=0", 406],
    ["application/json", 200],
    ["application/*", 200],
    ["*/*", 200],
    ["text/html, application/json;q=0.1", 200],
    ["*/*, application/json;q=0.5", 200],
  ])("Accept: %s → %i", async (accept, status) => {
    const r = await emu.call("GET", "/v2/custom_fields", { headers: { accept } });
    expect(r.status).toBe(status);
    if (status === 406) expectErrorBody(r, 406, "not_acceptable", "not_acceptable");
  });
});

describe("request bodies", () => {
  test("413 payload_too_large over 1 MiB, and the connection stays usable", async () => {
    const big = JSON.stringify({ ...FIELD, description: "x".repeat(1024 * 1024 + 10) });
    const r = await emu.call("POST", "/v2/custom_fields", {
      rawBody: big,
      headers: { "content-type": "application/json" },
    });
    expectErrorBody(r, 413, "payload_too_large", "payload_too_large");
    expect((await emu.call("GET", "/v2/custom_fields")).status).toBe(200);
  });

  test("just under the limit is read", async () => {
    const name = `near-limit-${Date.now()}`;
    // The longest description the API takes (emulator/http/limits.ts), the rest JSON whitespace.
    const body = JSON.stringify({ ...FIELD, name, description: "y".repeat(100_000) }).padEnd(
      1024 * 1024 - 200,
      " ",
    );
    const r = await emu.call("POST", "/v2/custom_fields", { rawBody: body });
    expect(r.status).toBe(201);
    expect((await emu.call("DELETE", `/v2/custom_fields/${r.body.custom_field.id}`)).status).toBe(204);
  });

  test("400 invalid_request_error for JSON that does not parse", async () => {
    const r = await emu.call("POST", "/v2/custom_fields", {
      rawBody: '{"name": ',
      headers: { "content-type": "application/json" },
    });
    expectErrorBody(r, 400, "invalid_request_error", "invalid_json");
  });

  test("400 for a body that is not an object", async () => {
    expectErrorBody(
      await emu.call("POST", "/v2/custom_fields", { rawBody: "[1,2]" }),
      400,
      "invalid_request_error",
    );
    expectErrorBody(
      await emu.call("POST", "/v2/custom_fields", { rawBody: '"text"' }),
      400,
      "invalid_request_error",
    );
  });
});

describe("422 validation_error", () => {
  test("missing required fields: code is_required, source.field names each", async () => {
    const r = await emu.call("POST", "/v2/custom_fields", { body: { name: "only a name" } });
    expectErrorBody(r, 422, "validation_error", "is_required", "description");
    expectErrorBody(r, 422, "validation_error", "is_required", "field_type");
    expect(r.body.errors).toHaveLength(2);
  });

  test("an empty body counts as {}: every required field is missing", async () => {
    const r = await emu.call("POST", "/v2/custom_fields", { rawBody: "" });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: any) => e.source.field).sort()).toEqual([
      "description",
      "field_type",
      "name",
    ]);
  });

  test("nested paths: source.field is the payload path", async () => {
    const r = await emu.call("POST", "/v2/custom_fields", {
      body: { ...FIELD, name: "nested", fixed_filter: { values: ["a", 3] } },
    });
    expectErrorBody(r, 422, "validation_error", "is_required", "fixed_filter.catalog_attribute_id");
    expectErrorBody(r, 422, "validation_error", "invalid_type", "fixed_filter.values.1");
  });

  test("enums: invalid_value with source.field", async () => {
    const r = await emu.call("POST", "/v2/custom_fields", { body: { ...FIELD, field_type: "colour" } });
    expectErrorBody(r, 422, "validation_error", "invalid_value", "field_type");
    const keys = await emu.call("POST", "/v1/api_keys", {
      body: { name: "k", role_names: ["viewer", "wizard"], team_ids: [], team_role_names: [] },
    });
    expectErrorBody(keys, 422, "validation_error", "invalid_value", "role_names.1");
  });

  test("wrong scalar types", async () => {
    const r = await emu.call("POST", "/v2/custom_fields", { body: { ...FIELD, name: 42 } });
    expectErrorBody(r, 422, "validation_error", "invalid_type", "name");
  });

  test("required query parameters and page_size ≥ 1", async () => {
    expectErrorBody(
      await emu.call("GET", "/v1/custom_field_options"),
      422,
      "validation_error",
      "is_required",
      "custom_field_id",
    );
    expectErrorBody(
      await emu.call("GET", "/v1/api_keys?page_size=0"),
      422,
      "validation_error",
      "invalid_value",
      "page_size",
    );
    expectErrorBody(
      await emu.call("GET", "/v1/api_keys?page_size=ten"),
      422,
      "validation_error",
      "invalid_type",
      "page_size",
    );
  });

  test("unknown fields are tolerated", async () => {
    const r = await emu.call("POST", "/v2/custom_fields", {
      body: { ...FIELD, name: "extra", colour: "red" },
    });
    expect(r.status).toBe(201);
    expect(r.body.custom_field.colour).toBeUndefined();
  });
});

describe("success statuses", () => {
  test("201 on create, 200 on show/update/list, 204 with an empty body on delete", async () => {
    const created = await emu.call("POST", "/v2/custom_fields", { body: { ...FIELD, name: "statuses" } });
    expect(created.status).toBe(201);
    expectShape("CustomFieldsCreateResultV2", created.body);
    const id = created.body.custom_field.id;
    expect((await emu.call("GET", `/v2/custom_fields/${id}`)).status).toBe(200);
    expect(
      (await emu.call("PUT", `/v2/custom_fields/${id}`, { body: { name: "statuses", description: "d" } }))
        .status,
    ).toBe(200);
    const del = await emu.call("DELETE", `/v2/custom_fields/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect(del.headers["content-type"]).toBeUndefined();
    expect((await emu.call("GET", `/v2/custom_fields/${id}`)).status).toBe(404);
  });

  test("every response carries a request id, distinct per request", async () => {
    const a = await emu.call("GET", "/v2/custom_fields");
    const b = await emu.call("GET", "/v2/custom_fields", { token: null });
    const c = await emu.call("GET", "/_emulator/health");
    for (const r of [a, b, c]) expect(r.headers["x-request-id"]).toMatch(/^req_[0-9a-f]+$/);
    expect(new Set([a, b, c].map((r) => r.headers["x-request-id"])).size).toBe(3);
  });

  test("the request log records method, path, status, key and time", async () => {
    const before = emu.requests.length;
    await emu.call("GET", "/v2/custom_fields?x=1");
    const entry = emu.requests[before]!;
    expect(entry).toMatchObject({
      method: "GET",
      path: "/v2/custom_fields",
      query: "x=1",
      status: 200,
      route: "/v2/custom_fields",
    });
    expect(typeof entry.apiKeyId).toBe("string");
    expect(entry.ms).toBeGreaterThanOrEqual(0);
  });
});
