// `npm start`: build if needed, then run the server (migrations and demo data happen at boot).
import { register } from "tsx/esm/api";
import { ensureBuild } from "./ensure-build.mjs";

ensureBuild();
// The shop's mode is NODE_ENV as given (decisions §1); libraries always run their production
// builds, since React and React Router are several times slower in development mode.
const mode = process.env.NODE_ENV || "development";
process.env.NODE_ENV = "production";
register();
const { main } = await import("../server/main.ts");
await main({ ...process.env, NODE_ENV: mode });
