/**
 * What the account-settings resources (severities, incident statuses and roles, maintenance windows,
 * secrets, schedule sync targets and rules) share: the by-name lookups' matching.
 */
import { LookupError } from "../../provider/functions";

/**
 * The one object named exactly `name`, or a LookupError from `lookup` naming what was searched
 * (with a near miss, differing only in case or surrounding whitespace, as a hint) or the ids of
 * several objects sharing the name.
 */
export function pickByName<T extends { id: string; name: string }>(
  all: readonly T[],
  name: string,
  lookup: string,
  title: string,
): T {
  const matches = all.filter((o) => o.name === name);
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new LookupError(
      lookup,
      `the ${title} name ${JSON.stringify(name)} is shared by ${matches.length} objects (${matches.map((o) => o.id).join(", ")}): use an id instead`,
    );
  }
  const near = all.find((o) => o.name.trim().toLowerCase() === name.trim().toLowerCase());
  throw new LookupError(
    lookup,
    `no ${title} named ${JSON.stringify(name)}${near ? ` (did you mean ${JSON.stringify(near.name)}?)` : ""}`,
  );
}
