import { ApiClient, closeAllConnections } from "../../provider/client";
import { setCredentials } from "../../provider/credentials";
import {
  alertAttributeFromApi,
  alertAttributeInputs,
  alertAttributePayload,
  alertAttributeProvider,
  findAlertAttributeByName,
} from "../../resources/alertAttribute";
import { type AlertMiniServer, startAlertMiniServer } from "../fixtures/alertSource/miniServer";
import { shapeProblems } from "../fixtures/escalationPath/referenceShape";

const parse = (raw: Record<string, unknown>) => alertAttributeInputs.parse(raw);

describe("mapping", () => {
  test("payload has the reference shape (create and update)", () => {
    const payload = alertAttributePayload(
      parse({ name: "Service", type: 'CatalogEntry["01T"]', emoji: ":fire:" }),
    );
    expect(payload).toEqual({
      name: "Service",
      type: 'CatalogEntry["01T"]',
      array: false,
      required: false,
      emoji: "fire",
    });
    expect(shapeProblems(payload, "AlertAttributesCreatePayloadV2")).toEqual([]);
    expect(shapeProblems(payload, "AlertAttributesUpdatePayloadV2")).toEqual([]);
  });
  test("emoji omitted is not sent", () => {
    expect(alertAttributePayload(parse({ name: "Team", type: "String", array: true }))).toEqual({
      name: "Team",
      type: "String",
      array: true,
      required: false,
    });
  });
});

describe("normalisation rules", () => {
  test('rule "emoji without colons": live `fire` reads back as the declared `:fire:`', () => {
    const declared = parse({ name: "S", type: "String", emoji: ":fire:" });
    const live = { id: "1", name: "S", type: "String", array: false, required: false, emoji: "fire" };
    expect(alertAttributeFromApi(live, declared).emoji).toBe(":fire:");
    const canonical = alertAttributeProvider.spec.canonical!;
    expect(canonical(declared)).toEqual(canonical(alertAttributeFromApi(live, undefined)));
  });
  test("a changed emoji is drift", () => {
    const declared = parse({ name: "S", type: "String", emoji: ":fire:" });
    const live = { id: "1", name: "S", type: "String", array: false, required: false, emoji: "ice" };
    expect(alertAttributeFromApi(live, declared).emoji).toBe("ice");
  });
});

describe("check", () => {
  test.each([
    [{ type: "String" }, "name"],
    [{ name: "", type: "String" }, "name"],
    [{ name: "S", type: "String", emoji: "::" }, "emoji"],
    [{ name: "S", type: "String", array: "yes" }, "array"],
    [{ name: "S", type: "String", colour: "red" }, "colour"],
  ])("%j fails at %s", async (inputs, property) => {
    const r = await alertAttributeProvider.check!({}, inputs);
    expect(r.failures?.map((f) => f.property)).toContain(property);
  });
});

describe("provider against the emulator family", () => {
  let server: AlertMiniServer;
  beforeAll(async () => {
    server = await startAlertMiniServer();
    setCredentials({ apiKey: "test-key", baseUrl: server.url });
  });
  afterAll(async () => {
    await closeAllConnections();
    await server.close();
  });

  test("create → read (no diff) → out-of-band change is drift → update → delete; lookup", async () => {
    const inputs = parse({ name: "Service", type: "String", emoji: ":fire:", required: true });
    const created = await alertAttributeProvider.create!(inputs);
    expect(created.outs.emoji).toBe(":fire:");
    const read = await alertAttributeProvider.read!(created.id, created.outs);
    const diff = await alertAttributeProvider.diff!(created.id, read.props!, inputs);
    expect(diff.changes).toBe(false);

    // Out-of-band edit with a second key.
    const other = new ApiClient({ apiKey: "second-key", baseUrl: server.url });
    await other.put(`/v2/alert_attributes/${created.id}`, "edit", {
      name: "Service",
      type: "String",
      array: true,
    });
    const drifted = await alertAttributeProvider.read!(created.id, read.props!);
    expect(drifted.props!.array).toBe(true);
    expect(drifted.props!.required).toBe(true); // omitted `required` keeps the setting
    expect((await alertAttributeProvider.diff!(created.id, drifted.props!, inputs)).changes).toBe(true);
    await alertAttributeProvider.update!(created.id, drifted.props!, inputs);
    expect(server.attributes.get(created.id)!.array).toBe(false);

    const found = await findAlertAttributeByName(other, "Service");
    expect(found).toMatchObject({ id: created.id, emoji: "fire", required: true });
    await expect(findAlertAttributeByName(other, "service")).rejects.toThrow(/did you mean "Service"/);

    await alertAttributeProvider.delete!(created.id, drifted.props!);
    expect((await alertAttributeProvider.read!(created.id, drifted.props!)).id).toBe("");
    expect(server.shapeErrors).toEqual([]);
  });

  test("adoption by id", async () => {
    const other = new ApiClient({ apiKey: "second-key", baseUrl: server.url });
    const existing = await other.post<any>("/v2/alert_attributes", "create", {
      name: "Region",
      type: "String",
      array: false,
    });
    const id = existing.alert_attribute.id;
    const adopted = await alertAttributeProvider.create!(
      parse({ name: "Region", type: "String", array: true, adoptId: id }),
    );
    expect(adopted.id).toBe(id);
    expect(server.attributes.get(id)!.array).toBe(true);
    expect([...server.attributes.values()].filter((a) => a.name === "Region" && !a.deleted)).toHaveLength(1);
  });

  test("duplicate name: the 422 names the input property", async () => {
    await expect(alertAttributeProvider.create!(parse({ name: "Region", type: "String" }))).rejects.toThrow(
      /name: an alert attribute named "Region" already exists/,
    );
  });
});
