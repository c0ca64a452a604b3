/**
 * AlertSource through the harness (the real dynamic-provider host) against the real emulator, with the
 * shared lifecycle (test/support/lifecycle.ts). The alert attribute the program's one source binds is
 * made through the API in `setup` and found by the program with a lookup (the program then only reads
 * on a no-op `up`): the lifecycle helper takes a deployment's first `create` step as the adopted
 * object, so the program creates nothing but the source. Attributes and sources created together in
 * one deployment are covered by examples/oncall (test/examples.test.ts).
 */
import * as path from "node:path";
import { ALERT_SOURCES, type StoredAlertSource } from "../../emulator/families/alertSources";
import { templateToRichText } from "../../resources/shared/richText";
import { dashboardHttpSource } from "../support/alertEmulator";
import { describeLifecycle } from "../support/lifecycle";

/** The attribute the program looks up by name, made through the API in `setup`. */
const ATTRIBUTE = "Lifecycle service";
let attributeId = "";

/** The program's declared (base) title, as the API labels the stored document. */
const DECLARED_TITLE = "{{alert.title}} in {{alert.attributes.service}}";

function expectDeclared(source: any): void {
  expect(source.name).toBe("Lifecycle webhook");
  expect(source.source_type).toBe("http");
  expect(source.template.title.label).toBe(DECLARED_TITLE);
  expect(source.template.attributes).toEqual([
    {
      alert_attribute_id: attributeId,
      binding: {
        value: { label: expect.any(String), reference: "alert.attributes.service" },
        merge_strategy: "first_wins",
      },
    },
  ]);
  expect(source.auto_resolve_timeout_minutes).toBe(30);
}

describeLifecycle("AlertSource", {
  program: path.join(__dirname, "../fixtures/alertSource/program"),
  setup: async ({ call }) => {
    attributeId = (
      await call("POST", "/v2/alert_attributes", { name: ATTRIBUTE, type: "String", array: false })
    ).alert_attribute.id;
    return { attributeName: ATTRIBUTE };
  },
  live: async ({ call }) => (await call("GET", "/v2/alert_sources")).alert_sources,
  // The dashboard sends the whole source back (as it holds it) with another title.
  editOutOfBand: async ({ call, emu }, id) => {
    const stored = emu.store.collection<StoredAlertSource>(ALERT_SOURCES).get(id)!;
    const { source_type: _type, ...payload } = structuredClone(stored.payload);
    payload.template.title = { literal: templateToRichText("Edited {{ alert.title }}") };
    await call("PUT", `/v2/alert_sources/${id}`, payload);
  },
  expectRestored: (source) => {
    expectDeclared(source);
    expect(source.template.description.label).toBe("{{alert.description}}");
    expect(source.owning_team_ids).toEqual(["01TEAMPLATFORM"]);
  },
  expectUpdated: (source) => {
    expectDeclared(source);
    expect(source.template.description.label).toBe("{{alert.description}}\n\nUpdated");
    expect([...source.owning_team_ids].sort()).toEqual(["01TEAMPAYMENTS", "01TEAMPLATFORM"]);
  },
  createExisting: async ({ call }) =>
    (await call("POST", "/v2/alert_sources", dashboardHttpSource("Made by hand"))).alert_source.id,
});
