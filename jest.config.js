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
  // A handle some library leaves open must not keep CI waiting after the last test (the suites close
  // their own servers and pools; see test/setup.ts).
  forceExit: true,
  setupFilesAfterEnv: ["<rootDir>/test/setup.ts"],
};
