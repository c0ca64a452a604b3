/**
 * An account of about N objects spread over the kinds as a large organisation's would be (for the
 * export benchmark): alert attributes, select custom fields with their options, schedules and the
 * escalation paths that page them, a catalog with entries, alert sources and routes, workflows,
 * severities, roles, secrets, maintenance windows and API keys. Made through each kind's own create
 * (the provider's payloads, so every object is one the API holds), a few at a time.
 */
import type { ApiClient } from "../../provider/client";
import type { Props } from "../../provider/spec";
import { providers } from "../../resources";

/** Shares of N per kind (options: three per field; attributes: two per catalog type). */
export const SHARES: Array<[string, number]> = [
  ["AlertAttribute", 0.154],
  ["CustomField", 0.075],
  ["Schedule", 0.075],
  ["EscalationPath", 0.075],
  ["CatalogEntry", 0.2],
  ["AlertSource", 0.025],
  ["AlertRoute", 0.025],
  ["Workflow", 0.05],
  ["Severity", 0.015],
  ["IncidentRole", 0.015],
  ["Secret", 0.025],
  ["MaintenanceWindow", 0.015],
  ["ApiKey", 0.025],
];

/**
 * An organisation of many teams (`npm run bench:export -- --split-by team`): most objects belong to
 * a team (its rotas, escalation paths, alert sources and routes, workflows, secrets, keys), fewer
 * are the account's settings (alert attributes, custom fields, severities, roles). About N objects
 * with the options; catalog entries come on top (`ScaleOptions.catalog`).
 */
export const TEAM_SHARES: Array<[string, number]> = [
  ["AlertAttribute", 0.05],
  ["CustomField", 0.025],
  ["Schedule", 0.15],
  ["EscalationPath", 0.15],
  ["AlertSource", 0.1],
  ["AlertRoute", 0.1],
  ["Workflow", 0.15],
  ["Severity", 0.005],
  ["IncidentRole", 0.005],
  ["Secret", 0.075],
  ["MaintenanceWindow", 0.015],
  ["ApiKey", 0.05],
];

/** Inputs that name a kind's owning teams (the API's `owning_team_ids` / `team_ids`). */
const OWNER_INPUT: Record<string, string> = {
  AlertSource: "owningTeamIds",
  AlertRoute: "owningTeamIds",
  Workflow: "owningTeamIds",
  Secret: "owningTeamIds",
  CatalogType: "owningTeamIds",
  Schedule: "teamIds",
  EscalationPath: "teamIds",
  ApiKey: "teamIds",
};

export interface ScaleOptions {
  /** Shares of N per kind (default `SHARES`). */
  shares?: Array<[string, number]>;
  /** The owning teams of a kind's i-th object (for the kinds that take owners); none by default. */
  owners?(kind: string, i: number): string[];
  /** Catalog types of `entries` entries each, instead of one type with CatalogEntry's share of N. */
  catalog?: { types: number; entries: number };
}

export async function seedScaleAccount(
  client: ApiClient,
  total: number,
  options: ScaleOptions = {},
): Promise<Record<string, number>> {
  const ctx = { client };
  const made: Record<string, number> = {};
  const seen: Record<string, number> = {};
  const create = async (kind: string, args: Props): Promise<string> => {
    const spec = providers[kind]!.spec;
    const i = seen[kind] ?? 0;
    seen[kind] = i + 1;
    const owners = OWNER_INPUT[kind] !== undefined ? (options.owners?.(kind, i) ?? []) : [];
    const owned =
      owners.length === 0
        ? args
        : {
            ...args,
            [OWNER_INPUT[kind]!]: owners,
            // A key's teams are those its team roles apply to.
            ...(kind === "ApiKey" ? { teamRoles: ["schedules_reader"] } : {}),
          };
    const created = await spec.api.create(ctx, spec.inputs.parse(owned));
    made[kind] = (made[kind] ?? 0) + 1;
    return spec.idOf(created.live);
  };
  const shares = options.shares ?? SHARES;
  const count = (kind: string) =>
    Math.max(1, Math.round((shares.find(([k]) => k === kind)?.[1] ?? 0) * total));
  const times = <T>(n: number, make: (i: number) => Promise<T>) => inBatches(n, make);
  const users = (
    await client.get<{ users: Array<{ id: string }> }>("/v2/users", "list users", { page_size: "25" })
  ).users;

  const catalog = options.catalog ?? { types: 1, entries: count("CatalogEntry") };
  for (let t = 0; t < catalog.types; t++) {
    const suffix = catalog.types === 1 ? "" : ` ${t + 1}`;
    const type = await create("CatalogType", {
      name: `Service${suffix}`,
      description: "Services",
      typeName: `Custom["BenchService${suffix.trim()}"]`,
    });
    const tier = await create("CatalogTypeAttribute", { catalogTypeId: type, name: "Tier", type: "Number" });
    await times(catalog.entries, (i) =>
      create("CatalogEntry", {
        catalogTypeId: type,
        name: `Service ${i}`,
        externalId: `service-${i}`,
        attributeValues: { [tier]: String((i % 3) + 1) },
      }),
    );
  }
  await times(count("AlertAttribute"), (i) =>
    create("AlertAttribute", { name: `Attribute ${i}`, type: "String" }),
  );
  const fields = await times(count("CustomField"), (i) =>
    create("CustomField", { name: `Field ${i}`, description: `Field ${i}`, fieldType: "single_select" }),
  );
  await times(fields.length * 3, (i) =>
    create("CustomFieldOption", { customFieldId: fields[Math.floor(i / 3)]!, value: `Option ${i % 3}` }),
  );
  const schedules = await times(count("Schedule"), (i) =>
    create("Schedule", {
      name: `Rota ${i}`,
      timezone: "Europe/London",
      rotations: [
        {
          id: "primary",
          name: "Primary",
          versions: [
            {
              handoverStartAt: "2026-01-05T09:00:00Z",
              handovers: [{ interval: 1, intervalType: "weekly" }],
              users: users.slice(0, 3).map((u) => ({ id: u.id })),
              layers: [{ name: "Primary" }],
            },
          ],
        },
      ],
    }),
  );
  const paths = await times(count("EscalationPath"), (i) =>
    create("EscalationPath", {
      name: `Path ${i}`,
      path: [
        {
          id: "start",
          level: {
            targets: [
              {
                type: "schedule",
                id: schedules[i % schedules.length]!,
                urgency: "high",
                scheduleMode: "currently_on_call",
              },
            ],
            timeToAckSeconds: 300,
          },
        },
        { repeat: { repeatTimes: 1, toNode: "start" } },
      ],
    }),
  );
  const sources = await times(count("AlertSource"), (i) =>
    create("AlertSource", {
      name: `Source ${i}`,
      sourceType: "http",
      template: { title: "{{ alert.title }}", description: "{{ alert.description }}" },
    }),
  );
  await times(count("AlertRoute"), (i) =>
    create("AlertRoute", {
      name: `Route ${i}`,
      alertSources: [{ alertSourceId: sources[i % sources.length]! }],
      escalationConfig: {
        autoCancelEscalations: true,
        escalationTargets: [{ escalationPaths: { arrayValue: [{ literal: paths[i % paths.length]! }] } }],
      },
      incidentConfig: { enabled: true, template: { title: "{{ alert.title }}" } },
    }),
  );
  await times(count("Workflow"), (i) =>
    create("Workflow", {
      name: `Workflow ${i}`,
      trigger: "incident.updated",
      conditionGroups: [
        {
          conditions: [
            {
              subject: `incident.custom_field["${fields[i % fields.length]}"]`,
              operation: "is_set",
              paramBindings: [],
            },
          ],
        },
      ],
      steps: [
        { id: "post", name: "slack.post_message", paramBindings: [{ value: { literal: `C0BENCH${i}` } }] },
      ],
      onceFor: ["incident.url"],
      runsOnIncidents: "newly_created",
      runsOnIncidentModes: ["standard"],
      continueOnStepError: false,
      state: "active",
    }),
  );
  await times(count("Severity"), (i) =>
    create("Severity", { name: `Severity ${i}`, description: `Level ${i}` }),
  );
  await times(count("IncidentRole"), (i) =>
    create("IncidentRole", {
      name: `Role ${i}`,
      description: `Role ${i}`,
      instructions: `Do the work of role ${i}`,
      shortform: `role${i}`,
    }),
  );
  await times(count("Secret"), (i) =>
    create("Secret", { name: `Token ${i}`, value: `token-value-${i}-abcd` }),
  );
  await times(count("MaintenanceWindow"), (i) =>
    create("MaintenanceWindow", {
      name: `Window ${i}`,
      startAt: "2099-01-01T00:00:00Z",
      endAt: "2099-01-01T04:00:00Z",
      lead: { id: users[0]!.id },
      alertConditionGroups: [
        {
          conditions: [
            {
              subject: "alert.title",
              operation: "one_of",
              paramBindings: [{ arrayValue: [{ literal: `w${i}` }] }],
            },
          ],
        },
      ],
    }),
  );
  await times(count("ApiKey"), (i) => create("ApiKey", { name: `Key ${i}`, roles: ["viewer"] }));
  return made;
}

/** `make(0 … n-1)`, eight at a time, answers in order. */
async function inBatches<T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < n; start += 8) {
    const batch = Array.from({ length: Math.min(8, n - start) }, (_, k) => make(start + k));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}
