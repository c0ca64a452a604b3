// Every suite closes the provider client's keep-alive pools at the end, so jest can exit promptly.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { checkWarningLog } from "../provider/checkWarnings";
import { closeAllConnections } from "../provider/client";

// Pending creates (provider/journal.ts) of this worker and the provider hosts it starts stay in a
// temporary folder, never in the home directory.
process.env.INCIDENT_JOURNAL_DIR ??= mkdtempSync(path.join(tmpdir(), "incident-journal-"));

// Check warnings go nowhere unless a test catches them (test/support/checkWarnings.ts).
checkWarningLog.warn = () => undefined;

afterAll(async () => {
  await closeAllConnections();
});
