/**
 * Issue 10, part 2: configurations users write that used to show a change on every run. Each case
 * goes through the provider (check → create → diff → read → diff → update) against the in-process
 * emulator, which reproduces what the API does with them (duplicates removed, padded bindings
 * dropped, rotation versions stamped and superseded). A property test then proves the general rule:
 * whatever valid input is written, what the provider stores after a create or an update compares
 * equal to it, so no run can plan an update that names no changed key.
 */
import fc from "fast-check";
import { setCredentials } from "../provider/credentials";
import type { IncidentProvider } from "../provider/factory";
import { apiKeyProvider } from "../resources/apiKey";
import { scheduleProvider } from "../resources/schedule";
import { workflowProvider } from "../resources/workflow";
import { startTestEmulator, type TestEmulator } from "./support/emulator";

let emu: TestEmulator;

beforeAll(async () => {
  // Real time on both sides: rotation versions are judged against the provider's clock too.
  emu = await startTestEmulator({ now: () => Date.now() });
  setCredentials({ apiKey: emu.apiKey, baseUrl: emu.url });
});
afterAll(async () => {
  await emu.dispose();
});

const DAY = 86_400_000;

/**
 * One program run after another: create, then a second run (diff), a refresh (read + diff), and an
 * update with the same inputs must converge. Answers what each diff said.
 */
async function lifecycle(provider: IncidentProvider, inputs: Record<string, unknown>) {
  const checked = await provider.check!({}, { ...inputs, __provider: "shim" });
  expect(checked.failures).toEqual([]);
  const news = checked.inputs;
  const created = await provider.create!(news);
  const afterCreate = await provider.diff!(created.id, created.outs, news);
  const read = await provider.read!(created.id, created.outs);
  const refreshDrift = JSON.stringify(read.inputs) !== JSON.stringify(pickInputs(provider, news));
  const afterRefresh = await provider.diff!(created.id, read.props!, news);
  const updated = await provider.update!(created.id, read.props!, news);
  const afterUpdate = await provider.diff!(created.id, updated.outs!, news);
  await provider.delete!(created.id, updated.outs!);
  return {
    afterCreate: afterCreate.changes,
    refreshDrift,
    afterRefresh: afterRefresh.changes,
    afterUpdate: afterUpdate.changes,
  };
}

const converged = { afterCreate: false, refreshDrift: false, afterRefresh: false, afterUpdate: false };

function pickInputs(provider: IncidentProvider, props: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(provider.spec.inputs.shape))
    if (props[key] !== undefined) out[key] = props[key];
  return JSON.parse(JSON.stringify(out));
}

const version = {
  handoverStartAt: "2026-01-05T09:00:00Z",
  handovers: [{ interval: 1, intervalType: "weekly" }],
  users: [{ id: "01USERADA" }],
  layers: [{ name: "Primary" }],
};

describe("perpetual diffs of issue 10", () => {
  test('ApiKey with a repeated role or team id (the API keeps one): rule "set with repeats"', async () => {
    expect(
      await lifecycle(apiKeyProvider, {
        name: "Repeats",
        roles: ["viewer", "incident_creator", "viewer"],
        teamRoles: ["schedules_reader", "schedules_reader"],
        teamIds: ["01TEAMPAYMENTS", "01TEAMPLATFORM", "01TEAMPAYMENTS"],
      }),
    ).toEqual(converged);
  });

  test('workflow steps and conditions whose bindings end with an empty binding: rule "declared padding"', async () => {
    expect(
      await lifecycle(workflowProvider, {
        name: "Trailing empty bindings",
        trigger: "incident.updated",
        steps: [
          {
            id: "post",
            name: "slack.post_message",
            paramBindings: [{ value: { reference: "incident.slack_channel" } }, {}, { arrayValue: [] }],
          },
        ],
        conditionGroups: [
          {
            conditions: [
              {
                subject: "incident.severity",
                operation: "one_of",
                paramBindings: [{ arrayValue: [{ literal: "sev_1" }] }, {}],
              },
            ],
          },
        ],
      }),
    ).toEqual(converged);
  });

  test('schedule: first version without effectiveFrom, second one already started: rule "version in effect"', async () => {
    const past = new Date(Date.now() - 30 * DAY).toISOString();
    const inputs = {
      name: "Past second version",
      timezone: "Europe/London",
      rotations: [
        {
          id: "primary",
          name: "Primary",
          versions: [
            { ...version, users: [{ id: "01USERADA" }] },
            { ...version, effectiveFrom: past, users: [{ id: "01USERBOB" }] },
          ],
        },
      ],
    };
    expect(await lifecycle(scheduleProvider, inputs)).toEqual(converged);
    // The declared intent: the second version (Bob) is the one in effect.
    const checked = await scheduleProvider.check!({}, { ...inputs, __provider: "shim" });
    const created = await scheduleProvider.create!(checked.inputs);
    const shown = await emu.ok("GET", `/v2/schedules/${created.id}`);
    const rotations = shown.schedule.config.rotations;
    expect(rotations).toHaveLength(1);
    expect(rotations[0].users.map((u: any) => u.id)).toEqual(["01USERBOB"]);
    await scheduleProvider.delete!(created.id, created.outs);
  });
});

describe("an update that names no changed key cannot happen (property)", () => {
  const roles = ["viewer", "incident_creator", "catalog_viewer", "workflows_viewer"] as const;
  const teams = ["01TEAMPAYMENTS", "01TEAMPLATFORM"] as const;

  test("ApiKey: any roles / team roles / team ids, repeated and in any order, converge", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...roles), { maxLength: 6 }),
        fc.array(fc.constantFrom("schedules_reader", "catalog_editor"), { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom(...teams), { minLength: 1, maxLength: 4 }),
        async (r, tr, ti) => {
          expect(
            await lifecycle(apiKeyProvider, { name: "Prop", roles: r, teamRoles: tr, teamIds: ti }),
          ).toEqual(converged);
        },
      ),
      { numRuns: 25 },
    );
  });

  const binding = fc.oneof(
    fc.constant({}),
    fc.constant({ arrayValue: [] }),
    fc.record({ value: fc.record({ literal: fc.constantFrom("a", '{"b": 1, "a": 2}') }) }),
    fc.record({ value: fc.record({ reference: fc.constantFrom("incident.name", "incident.url") }) }),
  );

  test("Workflow: any step / condition bindings, padded or not, converge", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(binding, { maxLength: 4 }),
        fc.array(binding, { maxLength: 3 }),
        async (stepBindings, conditionBindings) => {
          expect(
            await lifecycle(workflowProvider, {
              name: "Prop",
              trigger: "incident.updated",
              steps: [{ id: "s", name: "slack.post_message", paramBindings: stepBindings }],
              conditionGroups: [
                {
                  conditions: [
                    { subject: "incident.severity", operation: "one_of", paramBindings: conditionBindings },
                  ],
                },
              ],
            }),
          ).toEqual(converged);
        },
      ),
      { numRuns: 25 },
    );
  });

  test("Schedule: versions with effectiveFrom in the past or the future (first one unset or set) converge", async () => {
    const offsetDays = fc.integer({ min: -60, max: 60 }).filter((d) => d !== 0);
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.uniqueArray(offsetDays, { minLength: 0, maxLength: 3 }),
        fc.integer({ min: 0, max: 999 }),
        async (firstSet, offsets, ms) => {
          const dates = [...offsets].sort((a, b) => a - b);
          const versions = [
            ...(firstSet ? [{ ...version, effectiveFrom: iso(-90) }] : [{ ...version }]),
            ...dates.map((d, i) => ({
              ...version,
              effectiveFrom: iso(d, ms),
              users: [{ id: i % 2 === 0 ? "01USERBOB" : "01USERADA" }],
            })),
          ];
          expect(
            await lifecycle(scheduleProvider, {
              name: "Prop",
              timezone: "UTC",
              rotations: [{ id: "r", name: "R", versions }],
            }),
          ).toEqual(converged);
        },
      ),
      { numRuns: 25 },
    );
  });
});

/** Midnight UTC `days` from today, plus `ms` milliseconds (the API keeps whole seconds). */
function iso(days: number, ms = 0): string {
  const today = Math.floor(Date.now() / DAY) * DAY;
  return new Date(today + days * DAY + ms).toISOString();
}
