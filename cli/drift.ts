/**
 * `pulumi-incident drift`: every object a stack manages (from `pulumi stack export`), read from the
 * API with the provider's own read and mapping, and compared with what the program declared, as the
 * provider compares: real drift (someone changed it in the dashboard), differences the
 * normalisation rules absorb (not drift), and objects deleted out of band. Read-only: the client
 * refuses anything but GET. Generic over every kind's ResourceSpec (resources/index.ts).
 */

import { ADOPT_KEY, readLiveObject } from "../provider/factory";
import { restoreAliases } from "../provider/normalise";
import { enablePagedReads, pagedReadsEnabled } from "../provider/pagedReads";
import { type Props, type ResourceSpec, WRITE_ALIASES } from "../provider/spec";
import type { Path } from "../provider/unknowns";
import { comparedInputs, kindOf, migrated, nameOf, providerOf, TYPE_PREFIX } from "./kinds";
import {
  type Block,
  codeList,
  count,
  headingBlock,
  type Inline,
  inlineCode,
  list,
  md,
  paragraph,
  renderBlocks,
  stackLabel,
  tableBlock,
} from "./markdown";
import { progress as progressOn, type Tone } from "./progress";
import { diffValues, inline, inputChanges, maskChanges, type PropertyChange } from "./propertyChanges";
import { checkAccount, ReadOnlyClient, settingsFrom } from "./readOnlyClient";
import { decode, SECRET_TEXT } from "./values";

export type DriftStatus = "in-sync" | "normalisation-only" | "drifted" | "deleted" | "error";

export interface DriftedObject {
  urn: string;
  name: string;
  kind: string;
  id: string;
  status: DriftStatus;
  /** drifted: what differs (declared → live); normalisation-only: how the API's form differs. */
  changes: PropertyChange[];
  /** Inputs held as encrypted secrets in the export: not compared. */
  notCompared?: string[];
  /** error: why the object could not be checked. */
  error?: string;
}

export interface DriftReport {
  project?: string;
  stack?: string;
  /** Objects per status. */
  counts: Record<DriftStatus, number>;
  objects: DriftedObject[];
}

export interface DriftOptions {
  /** `pulumi config --json --show-secrets` output: the stack's `incident:*` settings. */
  configFile?: string;
  env?: NodeJS.ProcessEnv;
  /** Objects read at once (the client's token bucket paces them). */
  concurrency?: number;
  /** Where progress goes (a bar on a terminal, plain lines otherwise); none when absent. */
  progress?: NodeJS.WritableStream & { isTTY?: boolean };
  /** The client to read with (tests); default: a read-only client from the settings. */
  client?: ReadOnlyClient;
}

interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Props;
  outputs?: Props;
  delete?: boolean;
  pendingReplacement?: boolean;
  /** A read-only resource (`Xxx.get`): the stack reads it, does not manage it. */
  external?: boolean;
}

/** The resources of a `pulumi stack export` document (or of its `deployment`). */
export function exportedResources(doc: unknown): ExportedResource[] {
  const d = doc as { deployment?: { resources?: unknown }; resources?: unknown } | null;
  const resources = d?.deployment?.resources ?? d?.resources;
  if (!d || typeof d !== "object" || !Array.isArray(resources))
    throw new Error("not a `pulumi stack export` document: it has no `deployment.resources` list");
  return resources as ExportedResource[];
}

export async function drift(doc: unknown, options: DriftOptions = {}): Promise<DriftReport> {
  const env = options.env ?? process.env;
  const all = exportedResources(doc);
  const managed = all.filter(
    (r) =>
      r.custom !== false &&
      r.type?.startsWith(TYPE_PREFIX) &&
      r.id &&
      !r.delete &&
      !r.pendingReplacement &&
      r.external !== true,
  );
  const client =
    options.client ?? new ReadOnlyClient({ ...settingsFrom(options.configFile, env), notify: () => {} });
  // The account first: a wrong URL or key, or an API out of reach, is one error for the whole run
  // (exit 1) in seconds, never a list of objects "deleted out of band" or unreadable one by one.
  await checkAccount(client, "nothing compared");
  const bar = options.progress ? progressOn(options.progress, env, "drift") : undefined;
  const objects: DriftedObject[] = new Array(managed.length);
  // Read by page where a kind's list serves its reads (provider/pagedReads.ts), with pages of this
  // run only: a cache left from an earlier check in this process is dropped first.
  const pagedBefore = pagedReadsEnabled();
  enablePagedReads(false);
  enablePagedReads(true);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < managed.length) {
      const index = next++;
      const r = managed[index]!;
      objects[index] = await checkOne(r, client);
      done++;
      const status = objects[index]!.status;
      bar?.step(done, managed.length, `${kindOf(r.type)} ${nameOf(r.urn)}`, {
        text: status,
        tone: TONE[status],
      });
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.min(options.concurrency ?? 4, Math.max(managed.length, 1)) }, worker),
    );
  } finally {
    enablePagedReads(false);
    enablePagedReads(pagedBefore);
    bar?.finish();
  }
  const counts: Record<DriftStatus, number> = {
    "in-sync": 0,
    "normalisation-only": 0,
    drifted: 0,
    deleted: 0,
    error: 0,
  };
  for (const o of objects) counts[o.status]++;
  const urn = all[0]?.urn?.split("::") ?? [];
  return { project: urn[1], stack: urn[0]?.replace(/^urn:pulumi:/, ""), counts, objects };
}

const TONE: Record<DriftStatus, Tone> = {
  "in-sync": "good",
  "normalisation-only": "good",
  drifted: "notice",
  deleted: "notice",
  error: "bad",
};

async function checkOne(r: ExportedResource, client: ReadOnlyClient): Promise<DriftedObject> {
  const base = {
    urn: r.urn,
    name: nameOf(r.urn),
    kind: kindOf(r.type) ?? r.type,
    id: String(r.id),
    changes: [],
  };
  const provider = providerOf(r.type);
  const spec = provider?.spec;
  if (!provider || !spec)
    return {
      ...base,
      status: "error",
      error: `kind ${base.kind} is unknown to this version of pulumi-incident`,
    };
  try {
    const secretPaths: Path[] = [];
    const { __provider: _p, ...stored } = r.inputs ?? {};
    const outputs = decode(r.outputs ?? {}, []) as Props;
    const declared = migrated(spec, decode(stored, secretPaths) as Props, outputs);
    // The provider's read takes the stored outputs (migrated) as its prior state.
    const prior = migrated(spec, outputs, outputs);
    const live = await readLiveObject(spec, { client }, String(r.id), prior);
    if (live === undefined) return { ...base, status: "deleted" };
    const opaque = Object.keys(declared).filter((k) => declared[k] === SECRET_TEXT);
    const readBack = readBackInputs(spec, live, declared, outputs);
    const [left, right] = [without(declared, opaque), without(readBack, opaque)];
    const real = [
      ...inputChanges(provider, left, right, secretPaths),
      ...fingerprintChanges(spec, outputs, spec.computed(live, prior) as Props),
    ];
    const notCompared = opaque.length ? { notCompared: opaque } : {};
    if (real.length > 0) return { ...base, status: "drifted", changes: real, ...notCompared };
    const apiForm = safe(() => spec.toInputs(live, undefined) as Props);
    const formOnly = apiForm
      ? maskChanges(
          diffValues(
            comparedInputs(spec, left),
            comparedInputs(spec, without(apiForm, [...opaque, ...(spec.localInputs ?? [])])),
          ),
          secretPaths,
        ).filter((c) => !(spec.localInputs ?? []).includes(String(c.path[0])))
      : [];
    return {
      ...base,
      status: formOnly.length ? "normalisation-only" : "in-sync",
      changes: formOnly,
      ...notCompared,
    };
  } catch (error) {
    return { ...base, status: "error", error: (error as Error).message ?? String(error) };
  }
}

/**
 * A write-only secret input is encrypted in the export: what the state keeps in clear of it (a
 * Secret's version and last four characters, `secretFingerprints`) is compared instead.
 */
function fingerprintChanges(spec: ResourceSpec, stored: Props, live: Props): PropertyChange[] {
  return (spec.secretFingerprints ?? []).flatMap((key): PropertyChange[] => {
    const [old, now] = [stored[key], live[key]];
    if (old === undefined || old === SECRET_TEXT || JSON.stringify(old) === JSON.stringify(now)) return [];
    return [{ path: [key], at: key, kind: "changed", old, new: now }];
  });
}

/** The live object in the input shape, as the provider's read gives it (declared spelling kept). */
function readBackInputs(spec: ResourceSpec, live: unknown, declared: Props, outputs: Props): Props {
  const mapped = spec.toInputs(live, declared) as Props;
  const aliases = (outputs[WRITE_ALIASES] ?? {}) as Record<string, string>;
  const restored = Object.keys(aliases).length ? restoreAliases(mapped, declared, aliases) : mapped;
  const local: Props = {};
  for (const key of [ADOPT_KEY, ...(spec.localInputs ?? [])])
    if (declared[key] !== undefined) local[key] = declared[key];
  return { ...restored, ...local };
}

function without(props: Props, keys: readonly string[]): Props {
  const out = { ...props };
  for (const k of keys) delete out[k];
  return out;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------- Markdown

/** `Kind `name` (id `id`)`: names and ids are user text, shown as code. */
const who = (o: DriftedObject): Inline => md`${o.kind} ${inlineCode(o.name)} (id ${inlineCode(o.id)})`;

/** The report, built with the escaping builder (cli/markdown.ts): no user text can become markup. */
export function driftMarkdown(report: DriftReport): string {
  const blocks: Block[] = [];
  const stack = stackLabel(report);
  blocks.push(headingBlock(2, stack ? md`Drift check for ${stack}` : md`Drift check`));
  const c = report.counts;
  const total = report.objects.length;
  const parts = [
    c.drifted && `${c.drifted} drifted`,
    c.deleted && `${c.deleted} deleted out of band`,
    c.error && `${c.error} not checked (error)`,
    c["normalisation-only"] && `${c["normalisation-only"]} differ in form only`,
    c["in-sync"] && `${c["in-sync"]} in sync`,
  ].filter((p): p is string => Boolean(p));
  const verdict =
    c.drifted + c.deleted > 0
      ? md`**Drift found**`
      : c.error > 0
        ? md`**Check incomplete**`
        : md`**No drift**`;
  blocks.push(
    paragraph(
      md`${verdict}: ${parts.join(" · ") || "nothing to check"} — ${count(total, "object")} read, nothing written.`,
    ),
  );

  const section = (
    title: string,
    status: DriftStatus,
    intro: Inline,
    body?: (o: DriftedObject) => Block[],
  ) => {
    const objects = report.objects.filter((o) => o.status === status);
    if (!objects.length) return;
    blocks.push(headingBlock(3, title), paragraph(intro));
    if (!body) {
      blocks.push(list(objects.map((o) => (o.error ? md`${who(o)}: ${o.error}` : who(o)))));
      return;
    }
    for (const o of objects) blocks.push(headingBlock(4, who(o)), ...body(o));
  };
  const changesTable = (left: string, right: string) => (o: DriftedObject) => [
    tableBlock(
      ["Property", left, right],
      o.changes.map((ch) => [
        inlineCode(ch.at || "(all)"),
        "old" in ch ? inlineCode(inline(ch.old)) : "—",
        "new" in ch ? inlineCode(inline(ch.new)) : "—",
      ]),
    ),
    ...(o.notCompared?.length
      ? [paragraph(md`Not compared (encrypted secrets in the export): ${codeList(o.notCompared)}`)]
      : []),
  ];
  section(
    "Drifted",
    "drifted",
    md`Changed outside Pulumi (in the dashboard or through the API). \`pulumi up --refresh\` puts back what the program declares (a plain \`pulumi up\` compares with the stack's state, which does not know of the change); to keep a change, make it in the program.`,
    changesTable("Declared (stack)", "Live (account)"),
  );
  section(
    "Deleted out of band",
    "deleted",
    md`The stack manages these, but they no longer exist. \`pulumi up --refresh\` creates them again; \`pulumi refresh\` drops them from the stack.`,
  );
  section("Not checked", "error", md`These could not be read; the check is incomplete.`);
  section(
    "Differences in form only (not drift)",
    "normalisation-only",
    md`The API answers these in another form of the same meaning (the provider's normalisation rules take them as equal); nothing to do.`,
    changesTable("Declared", "API's form"),
  );
  return renderBlocks(blocks);
}

/** What the drift job concludes: exit 0 (clean), 2 (drift) or 1 (some object could not be checked). */
export type DriftOutcome = "clean" | "drift" | "error";

export function outcomeOf(report: DriftReport): DriftOutcome {
  if (report.counts.error > 0) return "error";
  return report.counts.drifted + report.counts.deleted > 0 ? "drift" : "clean";
}
