/** Small Markdown helpers for reports that go into PR comments and issues. */

/** Inline code that survives any backticks in the text. */
export function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A table cell: pipes escaped, one line. */
export function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

export function table(head: string[], rows: string[][]): string[] {
  return [
    `| ${head.join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ];
}

/** Plural: `3 resources`, `1 resource`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `## Plan for `project` / `stack``: a report's title, naming the stack when the document does. */
export function heading(title: string, project: string | undefined, stack: string | undefined): string {
  const where = [project, stack]
    .filter((t): t is string => Boolean(t))
    .map(code)
    .join(" / ");
  return `## ${title}${where ? ` for ${where}` : ""}`;
}
