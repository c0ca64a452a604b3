/**
 * Catalog types, their schema and entries (API v3) served by the emulator: the reference shapes
 * (every 2xx body is checked against its type: responseProblems stays empty) and the family rules
 * listed in emulator/families/catalogTypes.ts and catalogEntries.ts.
 */
import { startTestEmulator, type TestEmulator } from "../support/emulator";

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

const fields = (body: any): string[] => (body?.errors ?? []).map((e: any) => e.source?.field);

async function newType(name: string, extra: Record<string, unknown> = {}): Promise<any> {
  return (
    await emu.ok("POST", "/v3/catalog_types", { body: { name, description: `${name} type`, ...extra } })
  ).catalog_type;
}

describe("catalog types", () => {
  test("create derives type_name, answers defaults and an empty schema; type_name is create-only", async () => {
    const t = await newType("Kubernetes cluster");
    expect(t).toMatchObject({
      name: "Kubernetes cluster",
      type_name: 'Custom["KubernetesCluster"]',
      engine_resource_type: `CatalogEntry["${t.id}"]`,
      schema: { version: 1, attributes: [] },
      ranked: false,
      is_editable: true,
    });
    const put = await emu.ok("PUT", `/v3/catalog_types/${t.id}`, {
      body: { name: "Clusters", description: "d", type_name: 'Custom["Other"]' },
    });
    expect(put.catalog_type.type_name).toBe('Custom["KubernetesCluster"]');
  });

  test('type_name must follow Custom["Name"] and be unique', async () => {
    const bad = await emu.call("POST", "/v3/catalog_types", {
      body: { name: "x", description: "d", type_name: "Service" },
    });
    expect(bad.status).toBe(422);
    expect(fields(bad.body)).toEqual(["type_name"]);
    await newType("Unique one", { type_name: 'Custom["UniqueOne"]' });
    const dup = await emu.call("POST", "/v3/catalog_types", {
      body: { name: "y", description: "d", type_name: 'Custom["UniqueOne"]' },
    });
    expect(fields(dup.body)).toEqual(["type_name"]);
  });

  test("update_schema: read-modify-write with the version; stale version is a 409", async () => {
    const t = await newType("Service");
    const v1 = await emu.ok("POST", `/v3/catalog_types/${t.id}/actions/update_schema`, {
      body: { version: 1, attributes: [{ name: "Tier", type: "Number", array: false }] },
    });
    expect(v1.catalog_type.schema.version).toBe(2);
    const tier = v1.catalog_type.schema.attributes[0];
    expect(tier).toMatchObject({ name: "Tier", type: "Number", array: false, mode: "" });
    const stale = await emu.call("POST", `/v3/catalog_types/${t.id}/actions/update_schema`, {
      body: { version: 1, attributes: [{ name: "Owner", type: "String", array: false }] },
    });
    expect(stale.status).toBe(409);
    const v2 = await emu.ok("POST", `/v3/catalog_types/${t.id}/actions/update_schema`, {
      body: {
        version: 2,
        attributes: [
          { id: tier.id, name: "Tier", type: "Number", array: false },
          { name: "Owner", type: "String", array: false, mode: "api" },
        ],
      },
    });
    expect(v2.catalog_type.schema.attributes.map((a: any) => [a.id === tier.id, a.name])).toEqual([
      [true, "Tier"],
      [false, "Owner"],
    ]);
    const bad = await emu.call("POST", `/v3/catalog_types/${t.id}/actions/update_schema`, {
      body: {
        version: 3,
        attributes: [
          { id: "01NOSUCH", name: "A", type: "String", array: false },
          { name: "B", type: 'Custom["Nope"]', array: false },
        ],
      },
    });
    expect(bad.status).toBe(422);
    expect(fields(bad.body)).toEqual(["attributes.0.id", "attributes.1.type"]);
  });

  test("delete archives the type and its entries", async () => {
    const t = await newType("Gone soon");
    const e = await emu.ok("POST", "/v3/catalog_entries", {
      body: { catalog_type_id: t.id, name: "one", attribute_values: {} },
    });
    expect((await emu.call("DELETE", `/v3/catalog_types/${t.id}`)).status).toBe(204);
    expect((await emu.call("GET", `/v3/catalog_types/${t.id}`)).status).toBe(404);
    expect((await emu.call("GET", `/v3/catalog_entries/${e.catalog_entry.id}`)).status).toBe(404);
    const list = await emu.ok("GET", "/v3/catalog_types");
    expect(list.catalog_types.map((x: any) => x.id)).not.toContain(t.id);
  });
});

describe("catalog entries", () => {
  let type: any;
  let tier: string;
  let tags: string;
  let team: string;
  let teamType: any;

  beforeAll(async () => {
    teamType = await newType("Squad", { use_name_as_identifier: true });
    await emu.ok("POST", "/v3/catalog_entries", {
      body: { catalog_type_id: teamType.id, name: "Core", external_id: "core", attribute_values: {} },
    });
    type = await newType("Feature");
    const schema = await emu.ok("POST", `/v3/catalog_types/${type.id}/actions/update_schema`, {
      body: {
        version: 1,
        attributes: [
          { name: "Tier", type: "Number", array: false },
          { name: "Tags", type: "String", array: true },
          { name: "Team", type: teamType.type_name, array: false },
        ],
      },
    });
    [tier, tags, team] = schema.catalog_type.schema.attributes.map((a: any) => a.id);
  });

  test("create, upsert by external id, labels of references", async () => {
    const body = {
      catalog_type_id: type.id,
      name: "Checkout",
      external_id: "checkout",
      aliases: ["co"],
      attribute_values: {
        [tier]: { value: { literal: "1" } },
        [tags]: { array_value: [{ literal: "a" }, { literal: "b" }] },
        [team]: { value: { literal: "core" } },
      },
    };
    const first = (await emu.ok("POST", "/v3/catalog_entries", { body })).catalog_entry;
    expect(first.attribute_values[team]).toEqual({ value: { literal: "core", label: "Core" } });
    expect(first.attribute_values[tags].array_value.map((v: any) => v.literal)).toEqual(["a", "b"]);
    const again = (await emu.ok("POST", "/v3/catalog_entries", { body: { ...body, name: "Checkout v2" } }))
      .catalog_entry;
    expect(again.id).toBe(first.id);
    expect(again.name).toBe("Checkout v2");
    const show = await emu.ok("GET", `/v3/catalog_entries/${first.id}`);
    expect(show.catalog_type.id).toBe(type.id);
  });

  test("attribute values are checked against the schema", async () => {
    const bad = await emu.call("POST", "/v3/catalog_entries", {
      body: {
        catalog_type_id: type.id,
        name: "Bad",
        attribute_values: { [tags]: { value: { literal: "x" } }, "01NOSUCH": { value: { literal: "y" } } },
      },
    });
    expect(bad.status).toBe(422);
    expect(fields(bad.body)).toEqual([`attribute_values.${tags}.value`, "attribute_values.01NOSUCH"]);
    const noType = await emu.call("POST", "/v3/catalog_entries", {
      body: { catalog_type_id: "01NOPE", name: "x", attribute_values: {} },
    });
    expect(noType.status).toBe(400);
  });

  test("list: paginated with total_record_count, identifier filter", async () => {
    const t = await newType("Paged");
    for (let i = 0; i < 7; i++) {
      await emu.ok("POST", "/v3/catalog_entries", {
        body: {
          catalog_type_id: t.id,
          name: `e${i}`,
          external_id: `x${i}`,
          aliases: [`alias${i}`],
          attribute_values: {},
        },
      });
    }
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await emu.ok(
        "GET",
        `/v3/catalog_entries?catalog_type_id=${t.id}&page_size=3${after ? `&after=${after}` : ""}`,
      );
      pages++;
      expect(page.pagination_meta.total_record_count).toBe(7);
      seen.push(...page.catalog_entries.map((e: any) => e.name));
      after = page.pagination_meta.after;
    } while (after);
    expect(pages).toBe(3);
    expect(seen).toEqual(["e0", "e1", "e2", "e3", "e4", "e5", "e6"]);
    const byAlias = await emu.ok(
      "GET",
      `/v3/catalog_entries?catalog_type_id=${t.id}&page_size=5&identifier=alias3`,
    );
    expect(byAlias.catalog_entries.map((e: any) => e.name)).toEqual(["e3"]);
    const byName = await emu.ok(
      "GET",
      `/v3/catalog_entries?catalog_type_id=${t.id}&page_size=5&identifier=e3`,
    );
    expect(byName.catalog_entries).toEqual([]); // the type does not use names as identifiers
    const noSize = await emu.call("GET", `/v3/catalog_entries?catalog_type_id=${t.id}`);
    expect(noSize.status).toBe(422);
  });

  test("bulk_update: atomic, at most 250, omitted rank cleared, omitted name kept", async () => {
    const t = await newType("Bulk", { ranked: true });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const e = await emu.ok("POST", "/v3/catalog_entries", {
        body: { catalog_type_id: t.id, name: `b${i}`, rank: 5, attribute_values: {} },
      });
      ids.push(e.catalog_entry.id);
    }
    const bad = await emu.call("POST", "/v3/catalog_entries/actions/bulk_update", {
      body: {
        catalog_type_id: t.id,
        entries: [
          { entry_id: ids[0], name: "renamed", attribute_values: {} },
          { entry_id: "01NOPE", attribute_values: {} },
        ],
      },
    });
    expect(bad.status).toBe(422);
    expect(fields(bad.body)).toEqual(["entries.1.entry_id"]);
    expect((await emu.ok("GET", `/v3/catalog_entries/${ids[0]}`)).catalog_entry.name).toBe("b0"); // nothing changed
    const ok = await emu.call("POST", "/v3/catalog_entries/actions/bulk_update", {
      body: {
        catalog_type_id: t.id,
        entries: [
          { entry_id: ids[0], name: "renamed", rank: 2, attribute_values: {} },
          { entry_id: ids[1], attribute_values: {} },
        ],
      },
    });
    expect(ok.status).toBe(204);
    const [a, b] = await Promise.all(ids.slice(0, 2).map((id) => emu.ok("GET", `/v3/catalog_entries/${id}`)));
    expect([a.catalog_entry.name, a.catalog_entry.rank]).toEqual(["renamed", 2]);
    expect([b.catalog_entry.name, b.catalog_entry.rank]).toEqual(["b1", 0]);
    const tooMany = await emu.call("POST", "/v3/catalog_entries/actions/bulk_update", {
      body: {
        catalog_type_id: t.id,
        entries: Array.from({ length: 251 }, () => ({ entry_id: ids[2], attribute_values: {} })),
      },
    });
    expect(fields(tooMany.body)).toContain("entries");
  });

  test("delete archives the entry", async () => {
    const e = await emu.ok("POST", "/v3/catalog_entries", {
      body: { catalog_type_id: type.id, name: "Temp", attribute_values: {} },
    });
    expect((await emu.call("DELETE", `/v3/catalog_entries/${e.catalog_entry.id}`)).status).toBe(204);
    expect((await emu.call("GET", `/v3/catalog_entries/${e.catalog_entry.id}`)).status).toBe(404);
  });
});
