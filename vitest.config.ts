// Three projects: unit and in-process integration tests on PGlite, the same integration tests on
// a real PostgreSQL server (plus tests/postgres/, what only a server can do), and browser journeys
// in Chromium against the built server.
import { defineConfig } from "vitest/config";

const integration = ["tests/integration/**/*.test.ts"];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "pglite",
          include: ["core/**/*.test.ts", "server/**/*.test.ts", "app/**/*.test.ts", "i18n/**/*.test.ts", "db/**/*.test.ts", "scripts/**/*.test.ts", ...integration],
          env: { TEST_DATABASE: "pglite" },
          globalSetup: ["tests/kit/database-template.ts"],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "postgres",
          include: [...integration, "tests/postgres/**/*.test.ts"],
          env: { TEST_DATABASE: "postgres" },
          globalSetup: ["tests/kit/database-template.ts"],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "browser",
          include: ["e2e/**/*.test.ts"],
          globalSetup: ["e2e/fixtures/global-setup.ts"],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // Pages answer in milliseconds, but CI's two cores may be busy with the server itself.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
