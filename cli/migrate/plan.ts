/**
 * The plan of a migration (`migrate --plan`, and the project's README): per source object, what
 * maps exactly, what approximately (and how), what not at all (and why), and what is written for
 * it. Markdown built with cli/markdown.ts, so every name from the source is text, never markup.
 */
import {
  type Block,
  count,
  headingBlock,
  inlineCode,
  join,
  list,
  md,
  oneLine,
  paragraph,
  renderBlocks,
  strong,
  tableBlock,
  text,
} from "../markdown";
import { type Fidelity, fidelityOf, type Migration, type PlannedObject } from "./model";
import { sourceTitle } from "./sourceClient";

const FIDELITY_TEXT: Record<Fidelity, string> = {
  exact: "exact",
  approximate: "approximate",
  unmapped: "not migrated",
};

const ORDER: Fidelity[] = ["unmapped", "approximate", "exact"];

/** The objects of a plan, counted by fidelity. */
export function planCounts(migration: Migration): Record<Fidelity, number> {
  const out: Record<Fidelity, number> = { exact: 0, approximate: 0, unmapped: 0 };
  for (const o of migration.plan) out[fidelityOf(o)]++;
  return out;
}

const objectTitle = (o: PlannedObject) => md`${o.sourceKind} ${strong(o.name)}`;

export function planMarkdown(migration: Migration, resourceNames: ReadonlyMap<string, string>): string {
  return renderBlocks(planBlocks(migration, resourceNames));
}

/** The plan as Markdown blocks (the README puts them after its own). */
export function planBlocks(migration: Migration, resourceNames: ReadonlyMap<string, string>): Block[] {
  const counts = planCounts(migration);
  const namesakes = migration.plan.reduce((n, o) => n + (o.namesakes?.length ?? 0), 0);
  const blocks: Block[] = [
    headingBlock(2, md`Migration plan (from ${sourceTitle(migration.source)})`),
    paragraph(
      md`${count(migration.plan.length, "object")}: ${counts.exact} exact, ${counts.approximate} approximate, ${counts.unmapped} not migrated.${migration.filteredOut > 0 ? ` ${count(migration.filteredOut, "object")} left out by the filters.` : ""}${namesakes > 0 ? ` ${count(namesakes, "object")} of this account already ${namesakes === 1 ? "has" : "have"} a name the migration gives (see "Already here").` : ""}`,
    ),
  ];
  for (const u of migration.namesakesUnchecked ?? [])
    blocks.push(
      paragraph(
        md`Not checked: whether this account already has a ${u.kind} under a name the migration gives (its list answered ${u.reason}: the key may not read them).`,
      ),
    );
  const written = (o: PlannedObject) =>
    o.written.length === 0
      ? text("nothing")
      : join(
          o.written.map((w) => md`${w.kind} ${inlineCode(resourceNames.get(w.key) ?? w.key)}`),
          ", ",
        );
  blocks.push(
    tableBlock(
      ["source", "maps", "written here"],
      migration.plan.map((o) => [objectTitle(o), text(FIDELITY_TEXT[fidelityOf(o)]), written(o)]),
    ),
  );
  for (const o of migration.plan) {
    blocks.push(headingBlock(3, md`${o.sourceKind} ${o.name} — ${FIDELITY_TEXT[fidelityOf(o)]}`));
    if (o.neededBy)
      blocks.push(paragraph(md`Migrated because ${o.neededBy} needs it (the filters left it out).`));
    for (const n of o.namesakes ?? [])
      blocks.push(
        paragraph(
          md`${strong("Already here")}: this account has a ${n.kind} named ${inlineCode(n.name)} (${inlineCode(n.id)}). ${inlineCode("pulumi up")} makes another beside it, or fails where the service keeps names unique. To take that one over instead, set ${inlineCode(`adoptId: ${JSON.stringify(n.id)}`)} on the resource ${inlineCode(resourceNames.get(n.key) ?? n.key)}; to keep both, rename one.`,
        ),
      );
    const items = [...o.items].sort((a, b) => ORDER.indexOf(a.fidelity) - ORDER.indexOf(b.fidelity));
    blocks.push(list(items.map((i) => md`${strong(FIDELITY_TEXT[i.fidelity])}: ${i.what} → ${i.how}`)));
  }
  return blocks;
}

/** The plan for the terminal: one line per object, then each approximation and what is left out. */
export function planText(migration: Migration): string {
  const counts = planCounts(migration);
  const lines = [
    `Migration plan (from ${sourceTitle(migration.source)}): ${count(migration.plan.length, "object")}: ${counts.exact} exact, ${counts.approximate} approximate, ${counts.unmapped} not migrated`,
  ];
  if (migration.filteredOut > 0)
    lines.push(`${count(migration.filteredOut, "object")} left out by the filters`);
  for (const u of migration.namesakesUnchecked ?? [])
    lines.push(
      `not checked: names of ${u.kind} objects already here (${u.reason}: the key may not read them)`,
    );
  for (const o of migration.plan) {
    lines.push(`  ${FIDELITY_TEXT[fidelityOf(o)].padEnd(12)} ${o.sourceKind} ${JSON.stringify(o.name)}`);
    // Names from the source on one line: a line break in one cannot forge a line of the plan.
    for (const i of o.items.filter((x) => x.fidelity !== "exact"))
      lines.push(`      ${FIDELITY_TEXT[i.fidelity]}: ${oneLine(i.what)}: ${oneLine(i.how)}`);
    for (const n of o.namesakes ?? [])
      lines.push(
        `      already here: ${n.kind} ${JSON.stringify(n.name)} (${n.id}): up makes another beside it; set adoptId to take it over, or rename one`,
      );
  }
  return `${lines.join("\n")}\n`;
}
