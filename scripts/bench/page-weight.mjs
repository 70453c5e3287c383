// The JavaScript and CSS a page makes the browser load, gzipped (level 9, like `gzip -9`): from
// its HTML, <script src>, <link rel=modulepreload href>, <link rel=stylesheet href> and the imports
// of inline <script type=module>; then, transitively, the static imports of those scripts
// (`import … from "…"`, `import "…"`, `export … from "…"`) and CSS `@import`s. Dynamic `import()`
// of a loaded script is not followed (the browser loads it later, if at all); the router's entry
// imports the current page's route modules dynamically, and modulepreload lists them.
import { gzipSync, constants } from "node:zlib";

/* global fetch */

export const GZIP_LEVEL = constants.Z_BEST_COMPRESSION;

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const LINK = /<link\b([^>]*)>/gi;
const ATTRIBUTE = /([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
const STATIC_IMPORT = /(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g;
const CSS_IMPORT = /@import\s+(?:url\()?\s*["']?([^"')\s;]+)/g;

function attributes(text) {
  const found = {};
  for (const match of text.matchAll(ATTRIBUTE)) found[match[1].toLowerCase()] = match[2] ?? match[3] ?? match[4] ?? "";
  return found;
}

/** The asset URLs a page's HTML names, by kind. */
export function assetsOf(html, pageUrl) {
  const js = new Set();
  const css = new Set();
  const resolve = (href) => new URL(href, pageUrl).href;
  for (const [, attrText, code] of html.matchAll(SCRIPT)) {
    const attrs = attributes(attrText);
    if (attrs.src) js.add(resolve(attrs.src));
    else if (attrs.type === "module") {
      for (const m of code.matchAll(STATIC_IMPORT)) js.add(resolve(m[1]));
      // An inline module's import() runs at once, during page load: it counts.
      for (const m of code.matchAll(DYNAMIC_IMPORT)) js.add(resolve(m[1]));
    }
  }
  for (const [, attrText] of html.matchAll(LINK)) {
    const attrs = attributes(attrText);
    const rel = (attrs.rel ?? "").toLowerCase().split(/\s+/);
    if (!attrs.href) continue;
    if (rel.includes("modulepreload")) js.add(resolve(attrs.href));
    else if (rel.includes("stylesheet")) css.add(resolve(attrs.href));
  }
  return { js: [...js], css: [...css] };
}

async function download(url) {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/**
 * Weighs the page at `baseUrl + path`: { js: {files, rawBytes, gzipBytes}, css: {…}, html }.
 * `headers` are sent with the page request (not with the asset requests).
 */
export async function pageWeight(baseUrl, path, headers = {}) {
  const pageUrl = new URL(path, baseUrl).href;
  const page = await fetch(pageUrl, { headers, redirect: "manual" });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`${pageUrl}: HTTP ${page.status}`);
  const found = assetsOf(html, pageUrl);
  const result = {
    url: pageUrl,
    html: { rawBytes: Buffer.byteLength(html), gzipBytes: gzipSync(html, { level: GZIP_LEVEL }).length },
    js: { files: [], rawBytes: 0, gzipBytes: 0 },
    css: { files: [], rawBytes: 0, gzipBytes: 0 },
  };
  const seen = new Set();
  const queue = [...found.js.map((url) => ["js", url]), ...found.css.map((url) => ["css", url])];
  while (queue.length > 0) {
    const [kind, url] = queue.shift();
    if (seen.has(url)) continue;
    seen.add(url);
    const body = await download(url);
    const gzipBytes = gzipSync(body, { level: GZIP_LEVEL }).length;
    const bucket = result[kind];
    bucket.files.push({ url: new URL(url).pathname, rawBytes: body.length, gzipBytes });
    bucket.rawBytes += body.length;
    bucket.gzipBytes += gzipBytes;
    const text = body.toString("utf8");
    if (kind === "js") {
      for (const m of text.matchAll(STATIC_IMPORT)) if (/^(\.{0,2}\/)/.test(m[1])) queue.push(["js", new URL(m[1], url).href]);
    } else {
      for (const m of text.matchAll(CSS_IMPORT)) queue.push(["css", new URL(m[1], url).href]);
    }
  }
  return result;
}

/** The gzip weight of the given asset paths as the server sends them (no imports followed): { files, rawBytes, gzipBytes }. */
export async function assetsWeight(baseUrl, paths) {
  const result = { files: [], rawBytes: 0, gzipBytes: 0 };
  for (const assetPath of paths) {
    const body = await download(new URL(assetPath, baseUrl).href);
    const gzipBytes = gzipSync(body, { level: GZIP_LEVEL }).length;
    result.files.push({ url: assetPath, rawBytes: body.length, gzipBytes });
    result.rawBytes += body.length;
    result.gzipBytes += gzipBytes;
  }
  return result;
}

export const kib = (bytes) => bytes / 1024;
