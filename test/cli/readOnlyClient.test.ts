/**
 * The review tools' client (cli/readOnlyClient.ts): GETs, and exactly one POST — previewing a
 * schedule's entries, which stores nothing (issue 29 item 4). Every other request is refused before
 * it is sent: the emulator's request log shows none of them.
 */
import fc from "fast-check";
import { isReadOnlyRequest, ReadOnlyClient, ReadOnlyRequestError } from "../../cli/readOnlyClient";
import { closeAllConnections } from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../support/emulator";

let emu: TestEmulator;
let client: ReadOnlyClient;
let scheduleId: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  client = new ReadOnlyClient({ apiKey: emu.apiKey, baseUrl: emu.url, maxRetries: 0 });
  scheduleId = (
    await emu.ok("POST", "/v2/schedules", {
      body: { schedule: { name: "Payments", timezone: "Europe/London", config: { rotations: [] } } },
    })
  ).schedule.id;
});
afterAll(async () => {
  await closeAllConnections();
  await emu.dispose();
});

const preview = (id: string) => `/v2/schedules/${id}/actions/preview_entries`;

test("sends GETs and the schedule-entries preview; the preview changes nothing", async () => {
  const before = await emu.ok("GET", `/v2/schedules/${scheduleId}`);
  const mark = emu.requests.length;
  await client.get(`/v2/schedules/${scheduleId}`, "show schedule");
  const body = await client.post<{ schedule_entries: unknown }>(preview(scheduleId), "preview entries", {
    schedule: { config: { rotations: [] } },
  });
  expect(body.schedule_entries).toEqual({ scheduled: [], overrides: [], final: [] });
  expect(emu.requests.slice(mark).map((r) => `${r.method} ${r.route} ${r.status}`)).toEqual([
    "GET /v2/schedules/{id} 200",
    "POST /v2/schedules/{id}/actions/preview_entries 200",
  ]);
  expect(await emu.ok("GET", `/v2/schedules/${scheduleId}`)).toEqual(before);
});

test("refuses every other write before it is sent: other paths, other methods, look-alike paths, a query", async () => {
  const mark = emu.requests.length;
  const refused: [string, string, Record<string, string>?][] = [
    ["POST", "/v2/schedules"],
    ["PUT", `/v2/schedules/${scheduleId}`],
    ["DELETE", `/v2/schedules/${scheduleId}`],
    ["PATCH", preview(scheduleId)],
    ["PUT", preview(scheduleId)],
    ["DELETE", preview(scheduleId)],
    ["POST", "/v2/schedule_overrides"],
    ["POST", `/v1/api_keys/${scheduleId}/actions/rotate`],
    ["POST", `/v3/schedules/${scheduleId}/rotations/r/actions/preview_rollout`],
    ["POST", `/v3/schedules/${scheduleId}/actions/preview_entries`],
    ["POST", `/v2/schedules/${scheduleId}/actions/preview_entries/`],
    ["POST", `/v2/schedules/${scheduleId}/actions/preview_entries/../../../../v1/api_keys`],
    ["POST", `/v2/schedules/a/b/actions/preview_entries`],
    ["POST", "/v2/schedules/../actions/preview_entries"],
    ["POST", "/v2/schedules/%2E%2E/actions/preview_entries"],
    ["POST", "/v2/schedules/x%2F..%2F..%2Fv1%2Fapi_keys/actions/preview_entries"],
    ["POST", "/v2/schedules//actions/preview_entries"],
    ["POST", `//v2/schedules/${scheduleId}/actions/preview_entries`],
    ["POST", `/v2/schedules/${scheduleId}/actions/preview_entries?x=1`],
    ["POST", preview(scheduleId), { dry_run: "false" }],
  ];
  for (const [method, path, query] of refused) {
    await expect(
      client.request({ method: method as "POST", path, operation: "write", query, body: {} }),
    ).rejects.toThrow(ReadOnlyRequestError);
  }
  expect(emu.requests.length).toBe(mark);
});

test("any method and path: allowed only for a GET or a POST to one schedule's preview_entries", () => {
  const segment = fc.oneof(
    fc.constantFrom("v2", "schedules", "actions", "preview_entries", "..", ".", "", "%2F", "01ABC", "v3"),
    fc.string({ maxLength: 4 }),
  );
  fc.assert(
    fc.property(
      fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"),
      fc.array(segment, { maxLength: 6 }),
      (method, segments) => {
        const path = `/${segments.join("/")}`;
        const allowed = isReadOnlyRequest({ method: method as "GET", path });
        const shaped =
          segments.length === 5 &&
          segments[0] === "v2" &&
          segments[1] === "schedules" &&
          segments[3] === "actions" &&
          segments[4] === "preview_entries" &&
          /^[^/?#\\]+$/.test(segments[2]!) &&
          ![".", ".."].includes(safeDecode(segments[2]!) ?? ".") &&
          !/[/?#\\]/.test(safeDecode(segments[2]!) ?? "/");
        expect(allowed).toBe(method === "GET" || (method === "POST" && shaped));
      },
    ),
    { numRuns: 2000 },
  );
});

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
