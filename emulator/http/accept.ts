/**
 * Content negotiation: every endpoint produces application/json only. A request is refused (406)
 * when its Accept header rules JSON out: no media range matches it, or the most specific matching
 * range has `q=0`. No Accept header (or an empty one) accepts anything.
 */
export function acceptsJson(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(",") : header;
  if (value === undefined || value.trim() === "") return true;
  let best: { specificity: number; q: number } | undefined;
  for (const part of value.split(",")) {
    const [range, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    if (!range) continue;
    const specificity =
      range === "application/json"
        ? 3
        : range === "application/*"
          ? 2
          : range === "*/*" || range === "*"
            ? 1
            : 0;
    if (specificity === 0) continue;
    let q = 1;
    for (const p of params) {
      const m = /^q\s*=\s*([0-9.]+)$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!Number.isFinite(q)) q = 0;
    if (!best || specificity > best.specificity || (specificity === best.specificity && q > best.q)) {
      best = { specificity, q };
    }
  }
  return best !== undefined && best.q > 0;
}
