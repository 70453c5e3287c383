// The two baselines of `npm run bench`, on bare node:http, in their own process (so they do not
// share an event loop with the load generator). Started by scripts/bench.mjs with BENCH_SERVER_URL
// (the real server, already up) and BENCH_SERVER_PORT; reports its ports over IPC.
//
// (a) "ceiling": the landing page's final HTML, fetched once from the real server
//     (GET / with `Cookie: locale=ru`), sent from memory with its Content-Type.
//
// (b) "render floor": per request, `renderToString` of exactly the React element that
//     app/entry.server.tsx hands to React for GET / (guest, locale ru):
//       <I18nProvider locale="ru" messages={ru}>           (the build's own provider)
//         <ServerRouter context={entryContext} url="http://127.0.0.1:PORT/" />
//       </I18nProvider>
//     ServerRouter is React Router's framework-mode root: FrameworkContext.Provider (needed by
//     <Meta>, <Links>) + RemixErrorBoundary + StaticRouterProvider over
//     createStaticRouter(createServerRoutes(manifest), staticHandlerContext); it builds those
//     routes and the static router on every render, as it does in the real server. (A bare
//     StaticRouterProvider would not do: root's <Meta>/<Links> need that FrameworkContext.)
//     How it is obtained, once at startup: the build (build/server/index.js) is imported,
//     services are booted like server/main.ts does (bootServices(loadSettings(…)), fresh
//     memory:// PGlite with demo data) and React Router's request handler runs GET / once with a
//     load context of the server's shape (RequestInfo fields + services). That runs the loaders
//     (root, landing layout, home) through React Router's static handler (`query`) and calls the
//     build's entry, whose renderToString call (renderToPipeableStream for a page that hydrates)
//     is intercepted to keep the element (the build does not export I18nProvider). Like the
//     server (server/pages.ts), the handler sees the landing language's part of the route table. The entry context is reused for every render, without
//     its `serverHandoffStream` (the single-fetch data stream, readable only once; all the real
//     page has from it is an empty Suspense marker `<!--$--><!--/$-->`).
//     The doctype, which renderToPipeableStream adds and renderToString does not, is prepended.
//     Not included per request: HTTP Request/Response objects, Hono middleware, the static
//     handler's matching and loaders, CSP hashing, cookies, streaming. The rendered HTML is checked
//     to equal the real page's (apart from that empty Suspense marker).
import http from "node:http";
import { createRequire } from "node:module";
import { register } from "tsx/esm/api";

/* global fetch, Request */

const SERVER_URL = process.env.BENCH_SERVER_URL;
const SERVER_PORT = process.env.BENCH_SERVER_PORT;
if (!SERVER_URL || !SERVER_PORT || !process.send) {
  console.error("scripts/bench/baselines.mjs is started by scripts/bench.mjs");
  process.exit(2);
}

// Like scripts/start.mjs: libraries run their production builds, the shop runs in development
// mode (demo data). Hence no static import of React here: it must load after this line.
process.env.NODE_ENV = "production";
register();
const { createElement } = await import("react");

// Intercept the entry's renderToPipeableStream before the build binds it. react-dom/server is
// CommonJS: the ESM view the build imports is made from this same exports object.
const require = createRequire(import.meta.url);
const domServer = require("react-dom/server");
const { renderToString } = domServer;
const realRenderToPipeableStream = domServer.renderToPipeableStream;
let captured = null;
domServer.renderToPipeableStream = (element, options) => {
  captured = element;
  return realRenderToPipeableStream(element, options);
};
// A page that does not hydrate, the landing among them, is rendered by renderToString.
domServer.renderToString = (element, options) => {
  captured = element;
  return renderToString(element, options);
};

const { loadBuild, bootServices } = await import("../../server/main.ts");
const { loadSettings } = await import("../../server/settings.ts");
const { createRequestHandler } = await import("react-router");
const { localeBuild } = await import("../../server/pages.ts");

const build = await loadBuild();
const settings = loadSettings({
  ...process.env,
  NODE_ENV: "development",
  DATABASE_URL: "memory://",
  LOG_LEVEL: "warn",
  PORT: SERVER_PORT, // the same PUBLIC_URL as the real server, so the canonical links match
});
const services = await bootServices(settings);

const EMPTY_SUSPENSE = "<!--$--><!--/$-->";
const locale = "ru";
const pageUrl = `http://127.0.0.1:${SERVER_PORT}/`;
// The landing's language sees its part of the route table, as in the server (server/pages.ts).
const handle = createRequestHandler(localeBuild(build, locale), settings.isProduction ? "production" : "development");
/** @type {import("../../server/context.ts").AppLoadContext} */
const loadContext = {
  requestId: "bench",
  locale,
  path: "/",
  shoppingArea: services.catalog.areaForCountry(undefined),
  clientIp: "127.0.0.1",
  isBot: false,
  t: services.catalogs.t(locale),
  auth: null, // a guest (RequestInfo.auth, set by the session middleware)
  services,
};
const once = await handle(new Request(pageUrl), loadContext);
const handlerHtml = await once.text();
domServer.renderToPipeableStream = realRenderToPipeableStream;
domServer.renderToString = renderToString;
if (once.status !== 200 || !captured) throw new Error(`GET / in the render baseline answered ${once.status}`);

const provider = captured; // <I18nProvider locale messages><ServerRouter context url /></I18nProvider>
const serverRouter = provider.props.children;
const entryContext = { ...serverRouter.props.context, serverHandoffStream: undefined };
// renderToPipeableStream (the real entry) writes the doctype of an <html> root; renderToString
// does not, so it is added here to send the same bytes.
const renderLanding = () =>
  "<!DOCTYPE html>" +
  renderToString(
    createElement(provider.type, { locale: provider.props.locale, messages: provider.props.messages }, createElement(serverRouter.type, { context: entryContext, url: serverRouter.props.url })),
  );

// (a): the real server's final HTML.
const real = await fetch(SERVER_URL + "/", { headers: { Cookie: "locale=ru" }, redirect: "manual" });
const realBody = Buffer.from(await real.arrayBuffer());
const realType = real.headers.get("content-type") ?? "text/html; charset=utf-8";
if (real.status !== 200) throw new Error(`GET / of the real server answered ${real.status}`);

// Check (b) against the real page.
const rendered = renderLanding();
const realHtml = realBody.toString("utf8");
const strip = (html) => html.replace(EMPTY_SUSPENSE, "");
const check = {
  renderedBytes: Buffer.byteLength(rendered),
  realBytes: realBody.length,
  sameAsRealPage: strip(rendered) === strip(realHtml),
  sameAsHandlerOnce: strip(rendered) === strip(handlerHtml),
  firstDifference: null,
  texts: {},
};
if (!check.sameAsRealPage) {
  const a = strip(rendered);
  const b = strip(realHtml);
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  check.firstDifference = { at: i, rendered: a.slice(i, i + 120), real: b.slice(i, i + 120) };
}
for (const text of JSON.parse(process.env.BENCH_LANDING_TEXTS ?? "[]")) {
  check.texts[text] = { rendered: rendered.includes(text), real: realHtml.includes(text) };
}

const listen = (handler) =>
  new Promise((resolve) => {
    const server = http.createServer(handler);
    server.keepAliveTimeout = 60_000;
    server.listen(0, "127.0.0.1", () => resolve(server));
  });

const ceiling = await listen((_req, res) => {
  res.writeHead(200, { "Content-Type": realType, "Content-Length": realBody.length });
  res.end(realBody);
});
const renderFloor = await listen((_req, res) => {
  let html;
  try {
    html = renderLanding();
  } catch (error) {
    res.writeHead(500).end(String(error));
    return;
  }
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": Buffer.byteLength(html) });
  res.end(html);
});

process.send({
  ceilingPort: ceiling.address().port,
  renderPort: renderFloor.address().port,
  check,
});

const stop = () => {
  ceiling.closeAllConnections();
  renderFloor.closeAllConnections();
  ceiling.close();
  renderFloor.close();
  services.database.close().finally(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.on("disconnect", stop);
