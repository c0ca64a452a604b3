import * as path from "node:path";
import { ESCALATION_PATHS, type StoredEscalationPath } from "../../emulator/families/escalationPaths";
import { dashboardEscalationPath, dashboardSchedule } from "../support/dashboard";
import { driverLabel, scenarioTimeoutMs } from "../support/driver";
import { harnessFixture } from "../support/harnessFixture";
import { describeLifecycle, type LifecycleApi } from "../support/lifecycle";

const program = path.join(__dirname, "../fixtures/escalationPath/program");

/** Every live escalation path, all pages (the program's schedule is not counted). */
async function allPaths({ call }: LifecycleApi): Promise<any[]> {
  const out: any[] = [];
  let after: string | undefined;
  do {
    const page = await call("GET", `/v2/escalation_paths?page_size=25${after ? `&after=${after}` : ""}`);
    out.push(...page.escalation_paths);
    after = page.pagination_meta?.after;
  } while (after);
  return out;
}

/** The program's base path: ack time 300 s, voicemail in the else branch, the owning teams. */
function expectBase(p: any): void {
  expect(p.name).toBe("Lifecycle payments");
  expect(p.path[0].level.time_to_ack_seconds).toBe(300);
  expect(p.path[1].if_else.else_path.map((n: any) => n.type)).toEqual(["voicemail"]);
  expect(p.path[2].repeat).toEqual({ repeat_times: 2, to_node: "start" });
  expect(p.team_ids).toEqual(["01TEAMPAYMENTS", "01TEAMPLATFORM"]);
}

describeLifecycle("EscalationPath", {
  program,
  // The schedule the path pages, made in the dashboard: the escalation path is then the only object
  // the program creates (the adoption step expects exactly that one create).
  setup: async ({ call }) => ({
    scheduleId: (
      await call(
        "POST",
        "/v2/schedules",
        dashboardSchedule({
          name: "Payments primary",
          timezone: "Europe/London",
          handoverStartAt: "2026-01-05T09:00:00Z",
          users: ["01USERADA"],
        }),
      )
    ).schedule.id,
  }),
  live: allPaths,
  // The dashboard sends the whole path back (as it holds it) with another ack time.
  editOutOfBand: async ({ call, emu }, id) => {
    const stored = emu.store.collection<StoredEscalationPath>(ESCALATION_PATHS).get(id);
    const payload = structuredClone(stored!.payload);
    payload.path[0].level.time_to_ack_seconds = 42;
    await call("PUT", `/v2/escalation_paths/${id}`, payload);
  },
  expectRestored: expectBase,
  expectUpdated: (p) => {
    expect(p.path[0].level.time_to_ack_seconds).toBe(600);
    expect(p.path[1].if_else.else_path).toEqual([
      {
        id: "node-1-else-0",
        type: "notify_channel",
        notify_channel: {
          targets: [{ id: "C999", type: "slack_channel", urgency: "low", schedule_mode: "" }],
        },
      },
    ]);
  },
  createExisting: async ({ call }) =>
    (
      await call(
        "POST",
        "/v2/escalation_paths",
        dashboardEscalationPath("Made by hand", {
          nodeId: "first",
          userId: "01USERBOB",
          urgency: "low",
          timeToAckSeconds: 900,
        }),
      )
    ).escalation_path.id,
});

/** The same program without `scheduleId`: it makes the schedule the path pages (a dependency). */
describe(`EscalationPath paging a schedule of the same program, through the ${driverLabel}`, () => {
  const h = harnessFixture(program);
  const { destroy, up } = h.driver;

  test(
    "up creates the schedule, then the path that targets it; destroy removes both",
    async () => {
      const first = await up(h.options());
      expect(first.errors).toEqual([]);
      const [schedule] = await h.list("/v2/schedules");
      const [p] = await h.list("/v2/escalation_paths");
      expect(first.outputs).toMatchObject({ scheduleId: schedule.id, pathId: p.id });
      expectBase(p);
      expect(p.path[0].level.targets.find((t: any) => t.type === "schedule")).toMatchObject({
        id: schedule.id,
        selected_rota_id: "primary",
      });
      const again = await up(h.options());
      expect(again.steps.filter((s) => s.op !== "same")).toEqual([]);

      expect((await destroy(h.options())).errors).toEqual([]);
      expect(await h.list("/v2/schedules")).toEqual([]);
      expect(await h.list("/v2/escalation_paths")).toEqual([]);
      expect(h.emu.responseProblems).toEqual([]);
    },
    scenarioTimeoutMs,
  );
});
