/**
 * `Xxx.get(name, id)` through the real Pulumi CLI: objects made outside the
 * stack are read by id into outputs, what the API never returns stays absent, nothing is written,
 * destroy leaves them alone, and an id that does not exist fails the run naming the kind and the id.
 */
import * as path from "node:path";
import { harnessFixture } from "../support/harnessFixture";

describe("Xxx.get(name, id)", () => {
  const h = harnessFixture(path.join(__dirname, "..", "fixtures", "get", "program"));
  const { destroy, up } = h.driver;

  const made = async (name: string) => {
    const attribute = await h.emu.ok("POST", "/v2/alert_attributes", {
      body: { name, type: "String", array: false, required: false, emoji: "gear" },
    });
    const key = await h.emu.ok("POST", "/v1/api_keys", {
      body: { name, role_names: ["viewer"], team_ids: [], team_role_names: [] },
    });
    return { attributeId: attribute.alert_attribute.id as string, apiKeyId: key.api_key.id as string };
  };

  test("reads existing objects into outputs, writes nothing, and destroy leaves them", async () => {
    const ids = await made("Made by hand");
    const mark = h.emu.requests.length;
    const result = await up(h.options(ids));
    expect(result.errors).toEqual([]);
    expect(result.steps.map((s) => `${s.op} ${s.name}`).sort()).toEqual([
      "read existing-attribute",
      "read existing-key",
    ]);
    expect(result.outputs).toMatchObject({
      attributeName: "Made by hand",
      attributeType: "String",
      attributeEmoji: "gear",
      keyName: "Made by hand",
      keyRoles: ["viewer"],
      // The token is returned only at creation and rotation: a read cannot give it back.
      keyTokenAvailable: false,
    });
    expect(result.outputs).not.toHaveProperty("keyToken");
    expect(h.writesSince(mark)).toEqual([]);

    // Read-only: a refresh finds nothing to change (no inputs appear, no diff), and writes nothing.
    const refreshed = await h.driver.preview({ ...h.options(ids), refresh: true, expectNoChanges: true });
    expect(refreshed.errors).toEqual([]);
    expect(refreshed.steps.filter((s) => s.op !== "same" && s.op !== "read")).toEqual([]);
    expect(h.writesSince(mark)).toEqual([]);

    expect((await destroy(h.options(ids))).errors).toEqual([]);
    expect(h.writesSince(mark)).toEqual([]);
    expect((await h.list("/v2/alert_attributes")).map((a) => a.id)).toContain(ids.attributeId);
  });

  test("an id that does not exist fails the run, naming the kind and the id", async () => {
    const ids = await made("Made by hand too");
    const result = await up(h.options({ ...ids, attributeId: "01NOSUCHATTRIBUTE" }));
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => e.message).join("\n")).toContain(
      'AlertAttribute.get: no alert attribute with id "01NOSUCHATTRIBUTE" exists',
    );
  });
});
