/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    // Type checking is done once by `npm run typecheck`; tests only transpile.
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.test.json" }],
  },
  testTimeout: 60000,
  setupFilesAfterEnv: ["<rootDir>/test/setup.ts"],
};
