/**
 * Workflow through the harness (the real dynamic-provider host) against the real in-process emulator:
 * the shared lifecycle (test/support/lifecycle.ts) on test/fixtures/workflow/program, and a trigger
 * change, which replaces the workflow (the API takes the trigger on create only).
 */
import * as path from "node:path";
import { type StoredWorkflow, WORKFLOWS } from "../../emulator/families/workflows";
import { driverLabel, scenarioTimeoutMs } from "../support/driver";
import { expectCreateBeforeDelete, expectPlannedReplace, harnessFixture } from "../support/harnessFixture";
import { describeLifecycle } from "../support/lifecycle";

const program = path.join(__dirname, "../fixtures/workflow/program");

/** The program's base workflow, as the API lists it (`WorkflowSlimV2`). */
function expectBase(w: any): void {
  expect(w.name).toBe("Lifecycle notify on critical");
  expect(w.trigger.name).toBe("incident.updated");
  expect(w.state).toBe("active");
  expect(w.delay).toEqual({ for_seconds: 30, conditions_apply_over_delay: false });
  expect([...w.runs_on_incident_modes].sort()).toEqual(["standard", "test"]);
  expect([...w.owning_team_ids].sort()).toEqual(["01TEAMPAYMENTS", "01TEAMPLATFORM"]);
  expect(w.private_incident_scope).toBe("owning_teams");
}

describeLifecycle("Workflow", {
  program,
  live: async ({ call }) => (await call("GET", "/v2/workflows")).workflows,
  // Someone disables the workflow and shortens its delay in the dashboard, which sends the whole
  // workflow back as it holds it.
  editOutOfBand: async ({ call, emu }, id) => {
    const stored = emu.store.collection<StoredWorkflow>(WORKFLOWS).get(id);
    const payload = structuredClone(stored!.payload);
    payload.state = "disabled";
    payload.delay = { for_seconds: 5, conditions_apply_over_delay: false };
    await call("PUT", `/v2/workflows/${id}`, payload);
  },
  expectRestored: expectBase,
  expectUpdated: (w) => {
    expect(w.name).toBe("Lifecycle notify on critical");
    expect(w.delay.for_seconds).toBe(120);
    expect([...w.runs_on_incident_modes].sort()).toEqual(["retrospective", "standard", "test"]);
    expect(w.version).toBeGreaterThan(1);
  },
  createExisting: async ({ call }) =>
    (
      await call("POST", "/v2/workflows", {
        name: "Made by hand",
        trigger: "incident.updated",
        condition_groups: [],
        steps: [{ id: "s", name: "slack.post_message", param_bindings: [] }],
        expressions: [],
        once_for: [],
        runs_on_incidents: "newly_created",
        runs_on_incident_modes: ["standard"],
        continue_on_step_error: true,
        state: "draft",
      })
    ).workflow.id,
});

/**
 * A trigger change replaces the workflow, create-before-delete: workflow names are not unique, so
 * the new workflow is created next to the old one, which is deleted (archived) only once the new one
 * exists; incidents are never left without the workflow.
 */
describe(`Workflow: a trigger change through the ${driverLabel}`, () => {
  const h = harnessFixture(program);
  const { destroy, preview, up } = h.driver;
  const live = () => h.list("/v2/workflows");

  test(
    "plans and applies a replace, the new workflow created before the old one is deleted",
    async () => {
      const first = await up(h.options());
      expect(first.errors).toEqual([]);
      const [old] = await live();
      expect(old.trigger.name).toBe("incident.updated");

      const planned = await preview(h.options({ trigger: "incident.created" }));
      expectPlannedReplace(planned, ["trigger"]);
      // A preview makes no API call at all.
      expect(planned.apiCalls).toEqual([]);

      const since = h.emu.requests.length;
      const moved = await up(h.options({ trigger: "incident.created" }));
      const replace = expectCreateBeforeDelete(moved, ["trigger"], old.id);

      // On the wire: the new workflow (same name, other trigger) is created while the old one is
      // still live, and only then is the old one archived.
      expect(h.writesSince(since)).toEqual(["POST /v2/workflows 201", `DELETE /v2/workflows/${old.id} 204`]);
      const after = await live();
      expect(after.map((w) => [w.name, w.trigger.name])).toEqual([[old.name, "incident.created"]]);
      expect(after[0].id).toBe(replace.id);
      expect(after[0].id).not.toBe(old.id);

      // The replacement reads back as declared: another run changes nothing.
      const again = await up(h.options({ trigger: "incident.created" }));
      expect(again.errors).toEqual([]);
      expect(again.steps.filter((s) => s.op !== "same")).toEqual([]);
      expect(again.apiCalls).toEqual([]);

      const gone = await destroy(h.options({ trigger: "incident.created" }));
      expect(gone.errors).toEqual([]);
      expect(await live()).toEqual([]);
      expect(h.emu.responseProblems).toEqual([]);
    },
    scenarioTimeoutMs,
  );
});
