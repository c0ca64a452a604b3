/**
 * The engine lane (`npm run test:engine`): the shared scenarios (every kind's lifecycle, its
 * replacements, the examples) and the engine-only tests in test/engine/, through the real Pulumi CLI
 * built by tools/pulumi/build.sh. test/engine/useCli.ts points test/support/driver.ts at the CLI.
 */
const base = require("./jest.config.js");

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testMatch: [
    // Each kind's test file: its lifecycle (and any other run of a program) goes through the real CLI;
    // its unit tests run again here, in seconds.
    "**/test/resources/*.test.ts",
    "**/test/examples.test.ts",
    // An exported account adopted, re-applied, refreshed and destroyed by the real engine.
    "**/test/exportRoundTrip.test.ts",
    // The killed provider host, as the real engine records it (the harness runs the whole matrix).
    "**/test/faults.test.ts",
    "**/test/engine/**/*.test.ts",
  ],
  testPathIgnorePatterns: [],
  setupFiles: ["<rootDir>/test/engine/useCli.ts"],
  // One CLI run previews, type-checks and applies: minutes per scenario, not seconds.
  testTimeout: 20 * 60_000,
  // Two at a time: a CLI run waits on its child processes (engine, language host, program, provider
  // host) as much as it computes, so two files share CI's two cores with time to spare per scenario.
  maxWorkers: 2,
};
