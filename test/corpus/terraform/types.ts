/**
 * The configurations of the official Terraform provider's acceptance tests
 * (incident-io/terraform-provider-incident, internal/provider/*_test.go), translated into this
 * provider's inputs: one file here per Terraform resource, run by test/terraformCorpus.test.ts.
 * Facts only are taken from those tests (which fields, which values, which steps), never their code.
 *
 * A Terraform test applies one configuration per step to the same resources (create, then updates);
 * a configuration usually holds the resources it refers to too (a custom field for its option, a
 * catalog type for its attribute). What it reads through data sources (users, an incident
 * timestamp) is what the account already has: seeded users, or objects `prepare` makes in the
 * dashboard first.
 */
import type { SampleApi } from "../../support/kindSamples";

/** Where a translated configuration comes from in the Terraform provider's repository. */
export interface TfSource {
  /** The test file, e.g. `internal/provider/incident_severity_resource_test.go`. */
  file: string;
  /** The test function (and, where one function runs several `resource.Test`s, which one). */
  test: string;
}

/** What a configuration's inputs may refer to. */
export interface TfRefs {
  /** The id of the resource `name` (its address, e.g. `catalog_type.example`) of the same configuration. */
  id(name: string): string;
  /** An output of the resource `name` of the same configuration. */
  out(name: string, key: string): any;
  /** What `prepare` made in the account before the case, by key. */
  given(key: string): string;
  /** The time `hours` from now, RFC 3339 at whole seconds (what `time.Now().Add(…)` gives the Go tests). */
  hoursFromNow(hours: number): string;
}

/** One resource of a configuration. */
export interface TfResource {
  /**
   * The resource's Terraform address without the `incident_` prefix (e.g. `catalog_type.example`):
   * the same resource across steps, and how others of the configuration refer to it.
   */
  name: string;
  /** This provider's kind (a key of `providers`, resources/index.ts). */
  kind: string;
  /** Its inputs, as a program writes them (camelCase, before `check`). */
  inputs(refs: TfRefs): Record<string, unknown>;
}

/** One configuration of a test (one step that applies a config). */
export interface TfConfig {
  /** Which step of the test this is, e.g. `create` or `update: name changed`. */
  step: string;
  /** Its resources (applied in waves, as the engine does: each once those it refers to are). */
  resources: TfResource[];
}

/** A test of the Terraform provider, translated: its configurations in the order its steps apply them. */
export interface TfCase extends TfSource {
  configs: TfConfig[];
  /** Makes in the account (with the dashboard key) what the configuration reads through data sources. */
  prepare?(api: SampleApi): Promise<Record<string, string>>;
  /**
   * Set while the case waits on a fix made elsewhere (say which): the runner skips it with this reason
   * in the test's title, and the lead removes it once that fix is merged.
   */
  waitsOn?: string;
}

/** A configuration (or a whole test) of the Terraform provider that has no translation here. */
export interface TfNotTranslated extends TfSource {
  /** Which configuration or step; omitted for the whole test. */
  what?: string;
  /** Why it is not translated. */
  why: string;
}

/** One Terraform resource's acceptance tests: what is translated and what is not. */
export interface TfCorpus {
  /** The Terraform resource type, e.g. `incident_severity`. */
  resource: string;
  cases: TfCase[];
  notTranslated: TfNotTranslated[];
}

/**
 * A name as the Terraform tests write it (`StableSuffix`): the name, a dash and four hex characters
 * of the test run's id (names in those tests carry it, and some limits are paid for by it).
 */
export const stable = (name: string): string => `${name}-4f2a`;

// ---------- what the configurations of several files share ----------

/**
 * The workspace's Team catalog type, which many configs read (data source
 * `incident_catalog_type.team`) to make entries of: made in the dashboard first (`teamType`).
 */
export async function teamCatalogType(api: SampleApi): Promise<Record<string, string>> {
  const made = await api.call("POST", "/v3/catalog_types", {
    name: "Team",
    description: "Teams",
    ranked: false,
    use_name_as_identifier: false,
  });
  return { teamType: made.catalog_type.id };
}

/**
 * Seeded teams (`/v3/teams`) standing for the Team catalog entries the configs make and name in
 * `team_ids` / `owning_team_ids`: the emulator's teams are its seeded ones, and a catalog entry id
 * is not a team there.
 */
export const SEEDED_TEAMS = ["01TEAMPLATFORM", "01TEAMPAYMENTS"] as const;

/** The rotation most configs give a schedule: `primary`, daily from 2024-05-01 12:00 UTC. */
export const dailyRotation = (users: { id: string }[], layerId = "primary") => ({
  id: "primary",
  name: "Primary",
  versions: [
    {
      handoverStartAt: "2024-05-01T12:00:00Z",
      users,
      layers: [{ id: layerId, name: "Primary" }],
      handovers: [{ intervalType: "daily", interval: 1 }],
    },
  ],
});
