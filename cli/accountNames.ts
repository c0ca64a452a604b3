/**
 * plan-report `--resolve`: the users and schedules a plan targets that neither the plan nor the
 * state names, looked up in the account with a read-only client (users by e-mail, schedules by
 * name), so reviewers read `bob@example.com`, not `user 01USERBOB`.
 */
import { ApiError } from "../provider/errors";
import type { AccountNames, UnnamedTarget } from "./planReport";
import { checkAccount, type ReadOnlyClient } from "./readOnlyClient";

const AT_ONCE = 4;

export interface ResolvedNames {
  names: AccountNames;
  /** Targets the account does not hold (their ids stay in the report). */
  missing: UnnamedTarget[];
}

export async function accountNames(targets: UnnamedTarget[], client: ReadOnlyClient): Promise<ResolvedNames> {
  const names: AccountNames = {};
  const missing: UnnamedTarget[] = [];
  if (targets.length === 0) return { names, missing };
  await checkAccount(client, "--resolve");
  const one = async (t: UnnamedTarget): Promise<void> => {
    try {
      if (t.type === "user") {
        const body = await client.get<{ user: { email?: string; name?: string } }>(
          `/v2/users/${encodeURIComponent(t.id)}`,
          "name a user",
        );
        const label = body.user.email ?? body.user.name;
        if (label) names[t.id] = label;
      } else {
        const body = await client.get<{ schedule: { name?: string } }>(
          `/v2/schedules/${encodeURIComponent(t.id)}`,
          "name a schedule",
        );
        if (body.schedule.name) names[t.id] = `schedule "${body.schedule.name}"`;
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) missing.push(t);
      else throw error;
    }
  };
  for (let i = 0; i < targets.length; i += AT_ONCE) await Promise.all(targets.slice(i, i + AT_ONCE).map(one));
  return { names, missing };
}
