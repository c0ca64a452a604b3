/**
 * The API's own validation in `check` (a spec's `remoteValidation`: `POST …/actions/validate`, which
 * writes nothing). The local rules (schema, `validate`) cannot know what only the account knows
 * (the custom fields, severities and engine references a payload names, the values an enum takes
 * where the reference gives none); the API's validate endpoint does, so a preview fails where the
 * `up` would.
 *
 * It never fails a check that it could not run: with no API key (an offline preview), with values
 * unknown until apply, with a key that may not call it (a read-only key: 403), or with the API
 * unreachable or failing (5xx, resets, unreadable answers, a 429 storm, a timeout), it says once per
 * run (a warning in the Pulumi log) that the server-side validation was skipped, and check passes:
 * the create or update validates the same payload. Only the API's answer that the payload is wrong
 * (422, or 400 naming a field) becomes check failures, each at the input path of the field the API
 * names (the spec's `fieldRenames`, provider/naming.ts). Nothing is cached: every check asks again.
 * The factory calls it only for a declaration that will be sent (not an unchanged one, not an
 * adoption): a no-change preview makes no request.
 */
import { logWarning } from "./client";
import { currentClient } from "./credentials";
import { ApiError } from "./errors";
import { type FieldRenames, inputPathForApiField } from "./naming";
import type { Props, ResourceSpec } from "./spec";

export interface RemoteFailure {
  property: string;
  reason: string;
}

/** Where the skip notices go (the Pulumi log's warning); tests replace `warn`. */
export const remoteValidationLog = { warn: (message: string) => logWarning(message) };

/** What was already said this run (reset by `configure`: one provider process per run). */
const said = new Set<string>();

/** Forgets what was said (a new run). */
export function resetRemoteValidation(): void {
  said.clear();
}

function sayOnce(key: string, message: string): void {
  if (said.has(key)) return;
  said.add(key);
  remoteValidationLog.warn(message);
}

/** How many times a failed validate is tried again before it is skipped (a preview stays quick). */
const VALIDATE_RETRIES = 2;

/**
 * Runs the spec's validate call for checked inputs (`args`), or notes that it was skipped (`args`
 * undefined: values unknown until apply). Answers the check failures the API's answer names.
 */
export async function validateRemotely(
  spec: ResourceSpec,
  args: Props | undefined,
  renames: FieldRenames,
): Promise<RemoteFailure[]> {
  const remote = spec.remoteValidation;
  if (!remote) return [];
  const what = `${spec.kind}: the API's validation (POST ${remote.path})`;
  const skipped = (key: string, why: string) =>
    sayOnce(
      `${spec.kind} ${key}`,
      `${what} was skipped${why}; the create or update validates the same payload`,
    );
  if (args === undefined) {
    skipped("unknown", " where inputs hold values unknown until apply (a preview)");
    return [];
  }
  let client: ReturnType<typeof currentClient>;
  try {
    client = currentClient();
  } catch (error) {
    skipped("settings", ` (${(error as Error).message})`);
    return [];
  }
  const name = typeof args.name === "string" && args.name !== "" ? ` ${JSON.stringify(args.name)}` : "";
  try {
    const answer = await client.request<{ warnings?: unknown }>({
      method: "POST",
      path: remote.path,
      operation: remote.operation,
      body: remote.payload(args),
      // It writes nothing: repeating it is safe.
      repeatable: true,
      maxRetries: VALIDATE_RETRIES,
    });
    for (const w of Array.isArray(answer.body?.warnings) ? answer.body.warnings : []) {
      const at =
        typeof w?.path === "string" && w.path !== "" ? `${inputPathForApiField(w.path, renames)}: ` : "";
      const text = [w?.summary, w?.detail].filter((t) => typeof t === "string" && t !== "").join(": ");
      remoteValidationLog.warn(
        `${spec.kind}${name}: ${at}${text || JSON.stringify(w)} (the API's validation warns)`,
      );
    }
    return [];
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const refused = error.status === 422 || (error.status === 400 && error.details.some((d) => d.field));
    if (refused) {
      return error.details.map((d) => {
        const path = d.field ? inputPathForApiField(d.field, renames) : "";
        return {
          property: path === "" ? spec.kind : path.split(/[.[]/)[0]!,
          reason: `${path || spec.kind}: ${d.message} (the API's validation: ${error.status} ${error.type}${
            error.requestId ? `, request_id ${error.requestId}` : ""
          })`,
        };
      });
    }
    if (error.status === 403) {
      skipped(
        "forbidden",
        `: the API key may not call it (403 ${error.type}${error.details[0] ? `: ${error.details[0].message}` : ""}; a read-only key cannot)`,
      );
      return [];
    }
    skipped(`failed ${error.status}`, `: ${error.message}`);
    return [];
  }
}
