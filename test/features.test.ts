/**
 * Issue 10, part 5: things users of the official Terraform provider write, supported here and
 * tested against the emulator (which answers as the API does, quirks included).
 */

import { currentClient } from "../provider/credentials";
import type { IncidentProvider } from "../provider/factory";
import { alertRouteProvider } from "../resources/alertRoute";
import { alertSourceProvider } from "../resources/alertSource";
import { escalationPathProvider } from "../resources/escalationPath";
import { findUserById, findUserBySlackId, getUserArgs } from "../resources/lookups";
import { workflowProvider } from "../resources/workflow";
import { useAlertEmulator } from "./support/alertEmulator";
import { dashboardEscalationPath, dashboardSchedule } from "./support/dashboard";

const ae = useAlertEmulator();

/** check → create → a second run (diff) and a refresh show nothing → delete. Answers the created outputs. */
async function roundTrip(provider: IncidentProvider, inputs: Record<string, unknown>) {
  const checked = await provider.check!({}, { ...inputs, __provider: "shim" });
  expect(checked.failures).toEqual([]);
  const created = await provider.create!(checked.inputs);
  expect((await provider.diff!(created.id, created.outs, checked.inputs)).changes).toBe(false);
  const read = await provider.read!(created.id, created.outs);
  expect((await provider.diff!(created.id, read.props!, checked.inputs)).changes).toBe(false);
  const { __provider: _p, ...declared } = checked.inputs;
  for (const [key, value] of Object.entries(declared))
    expect({ [key]: read.inputs![key] }).toEqual({ [key]: value });
  return { created, checked };
}

const level = (targets: unknown[]) => ({ level: { targets, timeToAckSeconds: 300 } });

test("an escalation path with a schedule target and no scheduleMode (optional in the reference)", async () => {
  const schedule = await ae.emu.ok("POST", "/v2/schedules", {
    body: dashboardSchedule({
      name: "Primary",
      timezone: "UTC",
      handoverStartAt: "2026-01-05T09:00:00Z",
      users: ["01USERADA"],
    }),
  });
  const { created } = await roundTrip(escalationPathProvider, {
    name: "Schedule without a mode",
    path: [level([{ type: "schedule", id: schedule.schedule.id, urgency: "high" }])],
  });
  await escalationPathProvider.delete!(created.id, created.outs);
});

test("an alert route with no alert sources", async () => {
  const { created } = await roundTrip(alertRouteProvider, {
    name: "No sources yet",
    alertSources: [],
    escalationConfig: { autoCancelEscalations: true, escalationTargets: [] },
    incidentConfig: { enabled: false },
  });
  await alertRouteProvider.delete!(created.id, created.outs);
});

test('an alert route whose read echoes the escalation-path target into users (TF #390/#401): rule "echoed users"', async () => {
  const userId = (await ae.ok("GET", "/v2/users?email=ada%40example.com")).users[0].id;
  const path = (
    await ae.emu.ok("POST", "/v2/escalation_paths", { body: dashboardEscalationPath("Echo", { userId }) })
  ).escalation_path.id;
  const { created } = await roundTrip(alertRouteProvider, {
    name: "Echoed users",
    alertSources: [],
    escalationConfig: {
      autoCancelEscalations: true,
      escalationTargets: [{ escalationPaths: { arrayValue: [{ literal: path }] } }],
    },
    incidentConfig: { enabled: false },
  });
  // The API did echo it.
  const live = await ae.ok("GET", `/v3/alert_routes/${created.id}`);
  expect(live.alert_route.escalation_config.escalation_targets[0].users.array_value[0].literal).toBe(path);
  await alertRouteProvider.delete!(created.id, created.outs);
});

test("an alert source whose title and description are reference bindings", async () => {
  const { created } = await roundTrip(alertSourceProvider, {
    name: "References",
    sourceType: "http",
    template: {
      title: { reference: 'alert.payload["summary"]' },
      description: { reference: "alert.description" },
    },
  });
  const live = await ae.ok("GET", `/v2/alert_sources/${created.id}`);
  expect(live.alert_source.template.title.reference).toBe('alert.payload["summary"]');
  await alertSourceProvider.delete!(created.id, created.outs);
});

test("getUser by Slack user id or by id; exactly one way at a time", async () => {
  const client = currentClient();
  const ada = await findUserBySlackId(client, "U0ADA");
  expect(ada).toMatchObject({ id: "01USERADA", slackUserId: "U0ADA" });
  expect(await findUserById(client, "01USERADA")).toEqual(ada);
  await expect(findUserBySlackId(client, "U0NOBODY")).rejects.toThrow(
    /no user with Slack user id "U0NOBODY"/,
  );
  await expect(findUserById(client, "01NOBODY")).rejects.toThrow(/no user with id "01NOBODY"/);
  expect(getUserArgs.safeParse({ slackUserId: "U0ADA" }).success).toBe(true);
  expect(getUserArgs.safeParse({ id: "01USERADA" }).success).toBe(true);
  expect(getUserArgs.safeParse({ id: "x", email: "a@b.c" }).error?.issues[0]?.message).toBe(
    "give exactly one of email, slackUserId or id",
  );
});

test("workflow step upgrades: skipStepUpgrades is sent with updates (skip_step_upgrades) and kept as declared", async () => {
  const inputs = { name: "Skip upgrades", trigger: "incident.updated", skipStepUpgrades: true };
  const { created, checked } = await roundTrip(workflowProvider, inputs);
  expect(created.outs.skipStepUpgrades).toBe(true);
  const bodies: unknown[] = [];
  ae.emu.pipeline.use(
    "capture-skip",
    async (ctx, next) => {
      if (ctx.method === "PUT" && ctx.path.startsWith("/v2/workflows/")) bodies.push(ctx.body);
      await next();
    },
    { before: "handler" },
  );
  const updated = await workflowProvider.update!(created.id, created.outs, {
    ...checked.inputs,
    name: "Renamed",
  });
  expect(bodies).toEqual([expect.objectContaining({ skip_step_upgrades: true })]);
  expect(updated.outs!.skipStepUpgrades).toBe(true);
  await workflowProvider.delete!(created.id, updated.outs!);
});

test('a private Slack channel id the API answers as a catalog id (TF #237): rule "write-time aliases"', async () => {
  const channel = "T0PAYMENTS/C0PRIVATE42";
  const inputs = {
    name: "Post to a private channel",
    trigger: "incident.updated",
    steps: [{ id: "post", name: "slack.post_message", paramBindings: [{ value: { literal: channel } }] }],
  };
  const { created, checked } = await roundTrip(workflowProvider, inputs);
  // The API answered the catalog entry's id, which no lookup gives for a private channel.
  const live = await ae.emu.ok("GET", `/v2/workflows/${created.id}`);
  const answered = live.workflow.steps[0].param_bindings[0].value.literal;
  expect(answered).toMatch(/^01K[0-9A-Z]{23}$/);
  expect(created.outs.steps[0].paramBindings[0].value.literal).toBe(channel);
  // An update keeps it; a change made elsewhere (another channel) is drift.
  const updated = await workflowProvider.update!(created.id, created.outs, {
    ...checked.inputs,
    name: "Renamed",
  });
  expect(
    (await workflowProvider.diff!(created.id, updated.outs!, { ...checked.inputs, name: "Renamed" })).changes,
  ).toBe(false);
  const stored = live.workflow;
  await ae.emu.ok("PUT", `/v2/workflows/${created.id}`, {
    body: {
      name: "Renamed",
      steps: [
        {
          id: "post",
          name: "slack.post_message",
          param_bindings: [{ value: { literal: "01KOTHERCHANNEL0000000000" } }],
        },
      ],
      condition_groups: [],
      expressions: [],
      once_for: [],
      runs_on_incidents: stored.runs_on_incidents,
      runs_on_incident_modes: stored.runs_on_incident_modes,
      continue_on_step_error: false,
      state: "active",
      private_incident_scope: "none",
      include_private_escalations: false,
    },
  });
  const drifted = await workflowProvider.read!(created.id, updated.outs!);
  expect(drifted.inputs!.steps[0].paramBindings[0].value.literal).toBe("01KOTHERCHANNEL0000000000");
  expect(
    (await workflowProvider.diff!(created.id, drifted.props!, { ...checked.inputs, name: "Renamed" }))
      .changes,
  ).toBe(true);
  await workflowProvider.delete!(created.id, drifted.props!);
});
