/**
 * The account a recorded `pulumi preview --json` document was made against, made again in a test
 * emulator: each resource of the given kinds that the plan updates, replaces or deletes is created
 * from the inputs the document holds for it (its old state) with its provider's own check and
 * create, in the document's order; every id the document masks (`<id of Schedule payments-primary>`,
 * `<id 4>`: test/support/previewDigest.ts) becomes the id the emulator gave, found by walking the
 * recorded outputs beside the new ones, throughout the document. Tools that read the account (plan-report
 * `--shifts`) then read the emulator as they would the account.
 */
import { pagedFirstOf } from "../../cli/pagedFirst";
import { type PlanReport, plannedResources, planReport } from "../../cli/planReport";
import { ReadOnlyClient } from "../../cli/readOnlyClient";
import { shiftsOf } from "../../cli/shifts";
import { setCredentials } from "../../provider/credentials";
import { providers } from "../../resources";
import type { TestEmulator } from "./emulator";

const MASKED = /^<id[^<>]*>$/;
const TYPE_PREFIX = "pulumi-nodejs:dynamic/incident:";

/** Pairs masked ids in `recorded` with the values at the same place in `real`. */
function learn(recorded: unknown, real: unknown, ids: Map<string, string>): void {
  if (typeof recorded === "string" && MASKED.test(recorded) && typeof real === "string")
    ids.set(recorded, real);
  else if (Array.isArray(recorded) && Array.isArray(real)) {
    for (const [i, r] of recorded.entries()) learn(r, real[i], ids);
  } else if (recorded && typeof recorded === "object" && real && typeof real === "object")
    for (const [k, v] of Object.entries(recorded)) learn(v, (real as Record<string, unknown>)[k], ids);
}

function substitute<T>(value: T, ids: Map<string, string>): T {
  let text = JSON.stringify(value);
  for (const [masked, real] of [...ids].sort((a, b) => b[0].length - a[0].length))
    text = text.split(JSON.stringify(masked).slice(1, -1)).join(real);
  return JSON.parse(text);
}

export interface AccountOptions {
  /** The kinds made in the emulator (default: schedules and their overrides). */
  kinds?: readonly string[];
  /**
   * The stack's export before the plan, recorded beside the document (masked alike: the
   * test/fixtures/previewJson/shifts/*.state.json files): its objects the plan leaves as is (which
   * `pulumi preview --json` does not list) are made too, so that the plan's references to them hold.
   */
  state?: any;
}

/**
 * Makes the objects of `kinds` that the document's plan finds in the account, in `emu`; answers the
 * document with their real ids (and every id learnt from their outputs) in place of the masked ones.
 */
export async function previewAccount(
  digest: any,
  emu: TestEmulator,
  options: AccountOptions = {},
): Promise<any> {
  return substitute(digest, await makeAccount(digest, emu, options));
}

/**
 * `previewAccount`, and the recorded stack export with the real ids too: what a pipeline hands
 * plan-report as `--state` beside the document.
 */
export async function previewAccountAndState(
  digest: any,
  emu: TestEmulator,
  options: AccountOptions & { state: any },
): Promise<{ digest: any; state: any }> {
  const ids = await makeAccount(digest, emu, options);
  return { digest: substitute(digest, ids), state: substitute(options.state, ids) };
}

/** Makes the account in `emu`; answers the masked ids with the real ones. */
async function makeAccount(
  digest: any,
  emu: TestEmulator,
  { kinds = ["Schedule", "ScheduleOverride"], state }: AccountOptions,
): Promise<Map<string, string>> {
  setCredentials({ apiKey: emu.apiKey, baseUrl: emu.url });
  const ids = new Map<string, string>();
  const planned = new Set((digest.steps ?? []).map((s: any) => s.urn));
  const unchanged = (state?.deployment?.resources ?? [])
    .filter((r: any) => r.custom && !planned.has(r.urn))
    .map((r: any) => ({ op: "same", urn: r.urn, oldState: r }));
  const steps = [...(digest.steps ?? []), ...unchanged].filter(
    (s: any) =>
      ["update", "replace", "delete", "same"].includes(s.op) &&
      s.oldState?.id &&
      kinds.includes(String(s.oldState.type ?? "").slice(TYPE_PREFIX.length)),
  );
  const ordered = kinds.flatMap((k) => steps.filter((s: any) => s.oldState.type === `${TYPE_PREFIX}${k}`));
  const done = new Set<string>();
  for (const step of ordered) {
    if (done.has(step.urn)) continue;
    done.add(step.urn);
    const provider = providers[String(step.oldState.type).slice(TYPE_PREFIX.length)]!;
    const { __provider: _p, ...inputs } = substitute(step.oldState.inputs, ids);
    const checked = await provider.check!({}, inputs);
    if (checked.failures?.length) throw new Error(`${step.urn}: ${JSON.stringify(checked.failures)}`);
    const made = await provider.create(checked.inputs);
    ids.set(step.oldState.id, made.id);
    learn(step.oldState.outputs, made.outs, ids);
  }
  return ids;
}

/**
 * The plan report of a recorded (masked) preview document with the `--shifts` sections, computed
 * against `emu` (the document's account made there first): the report is read from the masked
 * document, so what it prints of ids is the fixture's, and the sections from the account.
 */
export async function reportWithShifts(
  digest: any,
  emu: TestEmulator,
  window: { start: number; end: number },
): Promise<PlanReport> {
  const real = await previewAccount(digest, emu);
  const report = planReport(digest);
  const planned = plannedResources(real);
  const context = {
    client: new ReadOnlyClient({ apiKey: emu.apiKey, baseUrl: emu.url }),
    window,
    names: (id: string) => report.names[id],
    state: [],
  };
  const { report: shifts, timelines } = await shiftsOf(planned, context);
  report.shifts = shifts;
  report.pagedFirst = await pagedFirstOf(planned, timelines, context);
  return report;
}

/**
 * The resources of `kinds` that a document (with real ids: `previewAccount`'s answer) finds in the
 * account, as `pulumi stack export` holds them: the stack's state before the plan.
 */
export function stackExportOf(real: any, kinds: readonly string[] = ["Schedule"]) {
  const steps = (real.steps ?? []).filter(
    (s: any) => s.oldState?.id && kinds.includes(String(s.oldState.type ?? "").slice(TYPE_PREFIX.length)),
  );
  const stack = String(steps[0]?.urn ?? "urn:pulumi:dev::project::").split("::");
  return {
    version: 3,
    deployment: {
      resources: [
        {
          urn: `${stack[0]}::${stack[1]}::pulumi:pulumi:Stack::${stack[1]}-${stack[0]?.replace(/^urn:pulumi:/, "")}`,
          type: "pulumi:pulumi:Stack",
          custom: false,
        },
        ...steps.map((s: any) => ({
          urn: s.urn,
          custom: true,
          id: s.oldState.id,
          type: s.oldState.type,
          inputs: s.oldState.inputs,
          outputs: s.oldState.outputs,
        })),
      ],
    },
  };
}
