// `npm start`: check the settings, build if needed, then run the server (migrations and demo
// data happen at boot).
import cluster from "node:cluster";
import { register } from "tsx/esm/api";
import { ensureBuild } from "./ensure-build.mjs";

register();
const { loadSettings, SettingsError } = await import("../server/settings.ts");
// The shop's mode is NODE_ENV as given (docs/product/operations.md#running); libraries always run their production
// builds, since React and React Router are several times slower in development mode.
const env = { ...process.env, NODE_ENV: process.env.NODE_ENV || "development" };
try {
  loadSettings(env);
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(error.message);
  process.exit(1);
}
// With WEB_CONCURRENCY the workers run this script too (node:cluster): the primary built.
if (cluster.isPrimary) ensureBuild();
process.env.NODE_ENV = "production";
const { main } = await import("../server/main.ts");
await main(env);
