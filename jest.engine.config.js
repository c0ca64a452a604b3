/**
 * The engine lane (`npm run test:engine`): what only the Pulumi engine decides, through the real
 * Pulumi CLI built by tools/pulumi/build.sh (CONTRIBUTING.md, "Test lanes"): the whole-account
 * program, the examples, `Xxx.get`, the killed provider host, the upgrade baselines, the recorded
 * plan-report documents, the CLI's own flags, and the harness's parity with the engine. Everything
 * here lives in test/engine/; test/engine/useCli.ts points test/support/driver.ts at the CLI.
 */
const base = require("./jest.config.js");

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testMatch: ["**/test/engine/**/*.test.ts"],
  testPathIgnorePatterns: [],
  setupFiles: ["<rootDir>/test/engine/useCli.ts"],
  // One CLI run previews, type-checks and applies: minutes per scenario, not seconds.
  testTimeout: 20 * 60_000,
  // Two at a time: a CLI run waits on its child processes (engine, language host, program, provider
  // host) as much as it computes, so two files share CI's two cores.
  maxWorkers: 2,
};
