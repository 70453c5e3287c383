// `npm run dev`: the shop from source with hot reload, in one process on one port (HOST:PORT, as
// `npm start`), on the embedded database by default (./.data/pglite; DATABASE_URL as ever).
// Vite runs in middleware mode: it serves the browser's modules, styles and public files and
// pushes route edits to the page (hot module replacement); every other request goes to the shop,
// which Vite loads through its SSR module graph (server/dev.ts), so an edit of a route, a core or
// a server file is in the next answer, with the database kept open. No build is involved.
// docs/product/operations.md#running, docs/decisions/0008-one-module-graph.md.
import { createServer } from "node:http";
import path from "node:path";
import { tsImport } from "tsx/esm/api";
import { createServer as createViteServer } from "vite";
import { root } from "./build-state.mjs";

// The shop's mode is NODE_ENV as given (development when unset); React runs its development build
// here, which the browser's hot reload needs.
const env = { ...process.env, NODE_ENV: process.env.NODE_ENV || "development" };
process.env.NODE_ENV = env.NODE_ENV;

// The settings are checked before anything starts (a bad one stops the start with one line). This
// check only: the shop, loaded by Vite below, reads them again with its own modules.
const { loadSettings, SettingsError } = await tsImport("../server/settings.ts", import.meta.url);
let settings;
try {
  settings = loadSettings(env);
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(error.message);
  process.exit(1);
}

// As `npm start` (server/main.ts): a client gets REQUEST_TIMEOUT_MS to send its whole request.
const timeout = settings.REQUEST_TIMEOUT_MS;
const server = createServer({ requestTimeout: timeout, headersTimeout: timeout, connectionsCheckingInterval: 1000 });
const vite = await createViteServer({
  root,
  configFile: path.join(root, "vite.config.ts"),
  appType: "custom",
  // Hot reload talks over this server's own port: no second port to open or to collide on.
  server: { middlewareMode: true, hmr: { server } },
});
// The Vite servers React Router starts inside this one (to load its configuration) exit the process
// at once on SIGTERM; the shop stops in its own order instead, and closes Vite last (stop(), below).
process.removeAllListeners("SIGTERM");
const DEV_ENTRY = "/server/dev.ts";
const MESSAGES = path.join(root, "i18n", "messages") + path.sep;

const dev = await vite.ssrLoadModule(DEV_ENTRY);
await dev.open(env);
// The first shop now, not at the first request: the jobs run from the start, and code that does
// not load says so at once (the next edit gets another try).
await dev.listener().catch((error) => console.error(error));

// The catalogues are read from disk, not imported: an edit of one reloads the shop all the same.
vite.watcher.on("change", (file) => {
  if (!file.startsWith(MESSAGES)) return;
  for (const module of vite.moduleGraph.getModulesByFile(path.join(root, DEV_ENTRY)) ?? []) vite.moduleGraph.invalidateModule(module);
});

server.on("request", (req, res) => {
  vite.middlewares(req, res, async () => {
    try {
      const shop = await (await vite.ssrLoadModule(DEV_ENTRY)).listener();
      shop(req, res);
    } catch (error) {
      // The code does not load (a syntax error, say): the error in the log and in the answer,
      // until the next edit.
      if (error instanceof Error) vite.ssrFixStacktrace(error);
      console.error(error);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
      res.end(error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
  });
});

server.listen(settings.PORT, settings.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : settings.PORT;
  console.log(`npm run dev: the shop on http://${settings.HOST}:${port}, from source, with hot reload`);
});

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  server.closeIdleConnections();
  setTimeout(() => server.closeAllConnections(), 3000).unref();
  await new Promise((resolve) => server.close(resolve));
  await (await vite.ssrLoadModule(DEV_ENTRY)).close();
  await vite.close();
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
