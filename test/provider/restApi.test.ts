import { newestMatching, restApi } from "../../provider/restApi";
import type { ApiContext } from "../../provider/spec";
import { announcementRuleProvider } from "../../resources/announcementRule";
import { incidentRoleProvider } from "../../resources/incidentRole";
import { maintenanceWindowProvider } from "../../resources/maintenanceWindow";
import { severityProvider } from "../../resources/severity";
import { useAlertEmulator } from "../support/alertEmulator";

const ae = useAlertEmulator({ dashboardRoles: ["global_access"] });

/** A client that records every call and answers the object under `thing`. */
function recordingContext() {
  const calls: string[] = [];
  const answer = (method: string) => async (path: string, operation: string, body?: unknown) => {
    calls.push(`${method} ${path} (${operation})${body === undefined ? "" : ` ${JSON.stringify(body)}`}`);
    return method === "DELETE" ? undefined : { thing: { id: "T 1", name: "x" } };
  };
  const client = { post: answer("POST"), get: answer("GET"), put: answer("PUT"), delete: answer("DELETE") };
  return { calls, ctx: { client } as unknown as ApiContext };
}

test("create posts the payload to the collection; read, update and delete address the object by its escaped id; each answers the object under its key", async () => {
  const api = restApi<{ name: string }, { id: string; name: string }>({
    collection: "/v2/things",
    key: "thing",
    noun: "thing",
    payload: (args) => ({ display_name: args.name }),
  });
  const { calls, ctx } = recordingContext();
  expect(await api.create(ctx, { name: "A" })).toEqual({ live: { id: "T 1", name: "x" } });
  expect(await api.read(ctx, "T 1", undefined)).toEqual({ id: "T 1", name: "x" });
  expect(await api.update(ctx, "T 1", { name: "B" }, {})).toEqual({ live: { id: "T 1", name: "x" } });
  await api.delete(ctx, "T 1", {});
  expect(calls).toEqual([
    'POST /v2/things (create thing) {"display_name":"A"}',
    "GET /v2/things/T%201 (show thing)",
    'PUT /v2/things/T%201 (update thing) {"display_name":"B"}',
    "DELETE /v2/things/T%201 (delete thing)",
  ]);
});

test("newestMatching: of the objects that match, the one created last, whatever the list's order; none when none match", () => {
  const made = (id: string, name: string, createdAt: string) => ({ id, name, created_at: createdAt });
  const all = [
    made("B", "Major", "2026-01-02T00:00:00Z"),
    made("C", "Minor", "2026-01-03T00:00:00Z"),
    made("A", "Major", "2026-01-01T00:00:00.500Z"),
    made("D", "Major", "2026-01-02T00:00:00.250Z"),
  ];
  expect(newestMatching(all, (o) => o.name === "Major")?.id).toBe("D");
  expect(newestMatching([...all].reverse(), (o) => o.name === "Major")?.id).toBe("D");
  expect(newestMatching(all, (o) => o.name === "Critical")).toBeUndefined();
  expect(all.map((o) => o.id)).toEqual(["B", "C", "A", "D"]);
});

/** The kinds whose names are not unique, so that `findCreated` takes the newest of the name. */
const HOUR = 3_600_000;
const namesNotUnique = [
  {
    kind: "Severity",
    provider: severityProvider,
    list: ["/v1/severities", "severities"],
    inputs: () => ({ name: "Lost answer" }),
  },
  {
    kind: "IncidentRole",
    provider: incidentRoleProvider,
    list: ["/v2/incident_roles", "incident_roles"],
    inputs: () => ({
      name: "Lost answer",
      shortform: "lost",
      description: "Recovered",
      instructions: "None",
    }),
  },
  {
    kind: "MaintenanceWindow",
    provider: maintenanceWindowProvider,
    list: ["/v1/maintenance_windows", "maintenance_windows"],
    inputs: () => ({
      name: "Lost answer",
      startAt: new Date(ae.emu.time() + 24 * HOUR).toISOString(),
      endAt: new Date(ae.emu.time() + 26 * HOUR).toISOString(),
      lead: { email: "ada@example.com" },
      alertConditionGroups: [
        {
          conditions: [
            {
              subject: "alert.title",
              operation: "one_of",
              paramBindings: [{ arrayValue: [{ literal: "db" }] }],
            },
          ],
        },
      ],
    }),
  },
  {
    kind: "AnnouncementRule",
    provider: announcementRuleProvider,
    list: ["/v2/announcement_rules", "announcement_rules"],
    inputs: () => ({
      name: "Lost answer",
      mode: "live_and_closed",
      updateSharingMode: "thread",
      conditionGroups: [
        {
          conditions: [
            {
              subject: "incident.severity",
              operation: "one_of",
              paramBindings: [{ arrayValue: [{ literal: "01SEVMAJOR" }] }],
            },
          ],
        },
      ],
      slackChannelIds: ["C0ANNOUNCE1"],
    }),
  },
] as const;

test.each(
  namesNotUnique,
)("$kind: a create whose answer is lost, with an older object of the same name, recovers the new object (no second create)", async ({
  provider,
  list: [collection, key],
  inputs,
}) => {
  const checked = async () => {
    const r = await provider.check!({}, { ...inputs(), __provider: "shim" });
    expect(r.failures ?? []).toEqual([]);
    return r.inputs;
  };
  const named = async () =>
    ((await ae.ok("GET", collection))[key] as { id: string; name: string }[]).filter(
      (o) => o.name === "Lost answer",
    );
  const old = await provider.create!(await checked());
  ae.emu.faults.add({ method: "POST", path: `^${collection}$`, kind: "reset-after" });
  const recovered = await provider.create!(await checked());
  expect(recovered.id).not.toBe(old.id);
  expect((await named()).map((o) => o.id).sort()).toEqual([old.id, recovered.id].sort());
  for (const made of [old, recovered]) await provider.delete!(made.id, made.outs);
});
