// Summarizes a V8 CPU profile (e.g. from `BENCH_CPU_PROF=1 npm run bench`): self time by package
// or area, and the functions with the most self time. Idle time is left out of the percentages.
// A timeline of busy time per 5 s shows boot and load phases; --from/--to (seconds since the
// profile's start) keep only the samples of a window, e.g. the load phase without the boot.
//   node scripts/bench/profile-summary.mjs <file.cpuprofile> [--top=25] [--from=20] [--to=60]
// (The server's main thread is the profile with the biggest file; a small second one may come
// from tsx's loader thread.)
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const found = args.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.slice(name.length + 3)) : fallback;
};
const file = args.find((a) => !a.startsWith("--"));
if (!file) {
  console.error("usage: node scripts/bench/profile-summary.mjs <file.cpuprofile> [--top=25] [--from=s] [--to=s]");
  process.exit(2);
}
const top = option("top", 25);
const from = option("from", 0) * 1e6;
const to = option("to", Infinity) * 1e6;
const profile = JSON.parse(readFileSync(file, "utf8"));

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const idleIds = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
const self = new Map();
const BUCKET = 5e6;
const busy = [];
let at = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  at += delta;
  const bucket = Math.floor(at / BUCKET);
  busy[bucket] ??= 0;
  if (!idleIds.has(id)) busy[bucket] += delta;
  if (at < from || at > to) return;
  self.set(id, (self.get(id) ?? 0) + delta);
});
console.log(`busy (non-idle) share of each 5 s since the profile's start:`);
console.log(busy.map((b, i) => `${i * 5}s ${Math.round(((b ?? 0) / BUCKET) * 100)}%`).join(", "));

function area(frame) {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node internals";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const local = /\/work\/main\/([^/]+)/.exec(url) ?? /file:\/\/.*?\/((?:app|server|core|db|i18n|build)\b)/.exec(url);
  return local ? `shop: ${local[1]}/` : url;
}

const byArea = new Map();
const byFunction = new Map();
let total = 0;
for (const [id, micros] of self) {
  const frame = nodes.get(id).callFrame;
  if (frame.functionName === "(idle)") continue;
  total += micros;
  const a = area(frame);
  byArea.set(a, (byArea.get(a) ?? 0) + micros);
  const name = `${frame.functionName || "(anonymous)"}  ${frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/\/work\/main\//, "")}:${frame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
}

const pct = (micros) => `${((micros / total) * 100).toFixed(1).padStart(5)}%`;
const window = from || to !== Infinity ? `, samples from ${from / 1e6} s to ${to === Infinity ? "the end" : `${to / 1e6} s`}` : "";
console.log(`\n${file}: ${(total / 1e6).toFixed(1)} s of CPU (idle excluded${window})\n\nself time by area`);
for (const [name, micros] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(micros)}  ${name}`);
console.log("\nfunctions with the most self time");
for (const [name, micros] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(micros)}  ${name}`);
