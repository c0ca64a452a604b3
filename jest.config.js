/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // test/engine/ needs the real Pulumi CLI: its own lane (npm run test:engine, jest.engine.config.js).
  testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/engine/"],
  // Recorded programs keep their package.json names (the same as the fixtures'): not modules for jest.
  modulePathIgnorePatterns: [
    "<rootDir>/test/upgrade/baselines/",
    "<rootDir>/test/fixtures/reviewPr/program-",
  ],
  transform: {
    // Type checking is done once by `npm run typecheck`; tests only transpile.
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.test.json" }],
  },
  testTimeout: 60000,
  // Every file runs in process (no engine, no child process but the CLI tools' own): both cores.
  maxWorkers: 2,
  // No forceExit: a handle left open shows as a hang, not as a run that seemed to end.
  setupFilesAfterEnv: ["<rootDir>/test/setup.ts"],
  // A run that leaves a process behind fails (test/support/leftoverProcesses.ts).
  globalSetup: "<rootDir>/test/support/globalSetup.ts",
  globalTeardown: "<rootDir>/test/support/globalTeardown.ts",
};
