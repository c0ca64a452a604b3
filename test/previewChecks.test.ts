/**
 * Issue 10, part 3: in a preview some inputs are unknown (the engine's sentinel). The cross-field
 * rules must still run on the known parts, so a preview fails (or warns, for a rule with no published
 * source: issue 28) where the `up` would, and must not report a problem that depends on an unknown
 * value.
 */
import { PASSED_ON } from "../provider/checkWarnings";
import { setCredentials } from "../provider/credentials";
import { UNKNOWN } from "../provider/unknowns";
import { providers } from "../resources";
import { checkWarned } from "./support/checkWarnings";

beforeAll(() => setCredentials({ apiKey: "preview", baseUrl: "http://127.0.0.1:9" }));

/** What check reports: each failure (`property: reason`) and each warning (`warning: path: message`). */
async function failures(kind: string, inputs: Record<string, unknown>): Promise<string[]> {
  const result = await checkWarned(providers[kind]!, inputs);
  return [
    ...result.failures.map((f) => `${f.property}: ${f.reason}`),
    ...result.warnings.map(
      (w) => `warning: ${w.replace(/^\w+(?: "[^"]*")?: /, "").replace(` (${PASSED_ON})`, "")}`,
    ),
  ];
}

const route = {
  name: UNKNOWN,
  alertSources: [{ alertSourceId: UNKNOWN }],
  escalationConfig: { autoCancelEscalations: true, escalationTargets: [] },
  incidentConfig: { enabled: true },
};

describe("cross-field rules run on the known parts of an input", () => {
  test("AlertRoute: unknown name and source id, incident creation enabled without a template", async () => {
    expect(await failures("AlertRoute", route)).toEqual([
      "warning: incidentConfig.template: is not set, and incident creation is enabled",
    ]);
  });

  test("ApiKey: unknown team ids, api_keys_manage granted", async () => {
    expect(
      await failures("ApiKey", {
        name: "CI",
        roles: ["api_keys_manage"],
        teamRoles: ["schedules_reader"],
        teamIds: UNKNOWN,
      }),
    ).toEqual([
      "warning: roles[0]: api_keys_manage: the reference says it cannot be assigned via the API (APIKeysV1Create), the seed lists it as assignable: it is sent, and the API decides",
    ]);
  });

  test("Schedule: one unknown timestamp, a duplicate rotation id elsewhere", async () => {
    const version = {
      handoverStartAt: "2026-01-05T09:00:00Z",
      handovers: [{ interval: 1, intervalType: "weekly" }],
      users: [{ id: UNKNOWN }],
      layers: [{ name: "L1" }],
    };
    expect(
      await failures("Schedule", {
        name: "On-call",
        timezone: "Europe/London",
        rotations: [
          { id: "r1", name: "A", versions: [{ ...version, handoverStartAt: UNKNOWN }] },
          { id: "r1", name: "B", versions: [version] },
        ],
      }),
    ).toEqual(['rotations: rotations[1].id: duplicate rotation id "r1"']);
  });

  test("Workflow: a rule that reads an unknown value is not reported (forEach names an unknown expression list)", async () => {
    expect(
      await failures("Workflow", {
        name: "w",
        trigger: "incident.updated",
        steps: [
          { id: "s", name: "n", forEach: "teams" },
          { id: "s", name: "n" },
        ],
        expressions: UNKNOWN,
      }),
    ).toEqual(['steps: steps[1].id: duplicate step id "s"']);
  });

  test("AlertSource: a rule whose other field is unknown is not reported", async () => {
    expect(
      await failures("AlertSource", {
        name: "s",
        sourceType: "http",
        template: { title: "t", description: "" },
        autoResolveIncidentAlerts: true,
        autoResolveTimeoutMinutes: UNKNOWN,
      }),
    ).toEqual([]);
  });

  test("an unknown value the rules need decides nothing (sourceType unknown: no option rule runs)", async () => {
    expect(
      await failures("AlertSource", {
        name: "s",
        sourceType: UNKNOWN,
        template: { title: "t", description: "" },
        httpCustomOptions: { transformExpression: "x", deduplicationKeyPath: "y" },
      }),
    ).toEqual([]);
  });
});

/**
 * A rule is skipped only when a value it reads is unknown, not when something else in the same field
 * is: each cross-field rule whose field holds other values (a tree of nodes, a list of expressions),
 * with an unknown value beside what it reads (still reported), then in what it reads (skipped).
 */
describe("an unknown value beside what a rule reads does not hide the problem", () => {
  // A schedule being created in the same program: its id is unknown in the preview.
  const scheduleTarget = {
    type: "schedule",
    id: UNKNOWN,
    urgency: "high",
    scheduleMode: "currently_on_call",
  };
  const level = (id?: string) => ({
    ...(id === undefined ? {} : { id }),
    level: {
      targets: [scheduleTarget, { type: "user", id: "01USERADA", urgency: "high" }],
      timeToAckSeconds: 300,
    },
  });
  const escalation = (path: unknown[], extra: Record<string, unknown> = {}) =>
    failures("EscalationPath", { name: "Payments", path, ...extra });

  test.each([
    [
      "repeat to a node that does not exist",
      [level("start"), { repeat: { repeatTimes: 2, toNode: "nowhere" } }],
      'warning: path[1].repeat.toNode: no node has id "nowhere"',
    ],
    [
      "a duplicate node id",
      [level("start"), level("start")],
      'path: path[1].id: duplicate node id "start" (also used by path[0])',
    ],
    [
      "repeat to a generated id",
      [level(), { repeat: { repeatTimes: 2, toNode: "node-0" } }],
      'warning: path[1].repeat.toNode: "node-0" is a generated id; give the node an explicit id to repeat from it',
    ],
  ])("EscalationPath, %s, a target id unknown: reported", async (_title, path, expected) => {
    expect(await escalation(path)).toEqual([expected]);
  });

  test("EscalationPath: the node ids the rules read are unknown: skipped", async () => {
    expect(await escalation([level(UNKNOWN), { repeat: { repeatTimes: 2, toNode: "start" } }])).toEqual([]);
    expect(await escalation([level("start"), { repeat: { repeatTimes: 2, toNode: UNKNOWN } }])).toEqual([]);
    // A whole node unknown: the tree's shape is unknown.
    expect(await escalation([UNKNOWN, { repeat: { repeatTimes: 2, toNode: "start" } }])).toEqual([]);
  });

  test("EscalationPath: a working-hours reference, with another working-hours field unknown: reported", async () => {
    const withWindow = {
      ...level("start"),
      level: { ...level("start").level, timeToAckWeekdayIntervalConfigId: "weekdays" },
    };
    const hours = [
      {
        id: "office",
        name: UNKNOWN,
        timezone: "Europe/London",
        weekdayIntervals: [{ weekday: "monday", startTime: "09:00", endTime: "17:00" }],
      },
    ];
    expect(await escalation([withWindow], { workingHours: hours })).toEqual([
      'warning: path[0].level.timeToAckWeekdayIntervalConfigId: no workingHours entry has id "weekdays"',
    ]);
    expect(await escalation([withWindow], { workingHours: [{ ...hours[0], id: UNKNOWN }] })).toEqual([]);
  });

  test("Workflow: forEach naming no expression, with an expression's root unknown (a custom field being made): reported", async () => {
    const workflow = (expressions: unknown) =>
      failures("Workflow", {
        name: "w",
        trigger: "incident.updated",
        steps: [{ id: "s", name: "n", forEach: "teams" }],
        expressions,
      });
    const expression = (reference: string, rootReference: string) => ({
      label: "Impact",
      reference,
      rootReference,
      operations: [{ operationType: "navigate", navigate: { reference: "value" } }],
    });
    expect(await workflow([expression("impact", `incident.custom_field["${UNKNOWN}"]`)])).toEqual([
      "warning: steps[0].forEach: names no expression of this workflow (known: impact)",
    ]);
    expect(await workflow([expression(UNKNOWN, "incident.severity")])).toEqual([]);
  });
});
