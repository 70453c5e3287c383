// Lint: TypeScript's recommended rules, plus the dependency rule of the architecture:
// app → server → core → db, never backwards.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const forbid = (patterns, message) => ["error", { patterns: patterns.map((group) => ({ group: [group], message })) }];

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", ".data/", "test-results/", "i18n/generated/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly", Buffer: "readonly", performance: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["core/**/*.ts"],
    rules: {
      "no-restricted-imports": forbid(
        ["react", "react-dom", "react-dom/*", "react-router", "hono", "hono/*", "**/server/**", "**/app/**"],
        "core is framework-free: it never imports React, React Router, Hono, server/ or app/",
      ),
    },
  },
  {
    files: ["db/**/*.ts"],
    rules: { "no-restricted-imports": forbid(["**/core/**", "**/server/**", "**/app/**"], "db is the bottom layer") },
  },
  {
    files: ["server/**/*.ts"],
    rules: { "no-restricted-imports": forbid(["**/app/**"], "server never imports the React app") },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": forbid(
        ["**/db/**", "**/db/client*", "drizzle-orm", "drizzle-orm/*", "pg", "@electric-sql/*"],
        "routes reach data through the core services in the load context, never the database",
      ),
    },
  },
  {
    // Components run in the browser: the rule above (this one replaces it for them), and no Zod there,
    // ~24 KiB gzip (docs/decisions/0009-forms-on-the-server.md).
    // Schemas are read by loaders and actions; forms get their constraints as plain data.
    files: ["app/components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": forbid(
        ["**/db/**", "**/db/client*", "drizzle-orm", "drizzle-orm/*", "pg", "@electric-sql/*", "zod", "zod/*", "@conform-to/zod", "@conform-to/zod/*", "**/*.schema.ts"],
        "components run in the browser: no database, and no Zod or schema module (docs/decisions/0009-forms-on-the-server.md)",
      ),
    },
  },
);
