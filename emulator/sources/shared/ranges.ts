/**
 * `[start, end)` ranges of numbers (instants, minutes of the week): sorted, and merged where they
 * overlap or touch. What the source emulators' renderings and the migration's times of the week
 * both need.
 */
export function mergeRanges(ranges: Iterable<readonly [number, number]>): [number, number][] {
  const sorted = [...ranges].filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [s, e] of sorted) {
    const top = out[out.length - 1];
    if (top && s <= top[1]) top[1] = Math.max(top[1], e);
    else out.push([s, e]);
  }
  return out;
}
