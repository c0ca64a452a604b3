import * as fs from "node:fs";
import type { ApiCall } from "./types";

/** The API calls an INCIDENT_TRACE_FILE holds (one JSON line per request), each tagged with who made it. */
export function readTrace(file: string, from: ApiCall["from"]): ApiCall[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [{ ...JSON.parse(l), from }];
      } catch {
        return [];
      }
    });
}
