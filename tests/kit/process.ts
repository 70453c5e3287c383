// The shop as `npm start` runs it, in a child process: started with settings, waited for, stopped
// with SIGTERM (server/process.test.ts, tests/postgres/scale.test.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export type ShopProcess = { child: ChildProcess; exited: Promise<number | null>; output(): string };

/** `node scripts/start.mjs` with the environment plus `env` (development, warnings only, unless `env` says otherwise). */
export function startShop(env: Record<string, string>): ShopProcess {
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "warn", NODE_ENV: "development", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Waits until /healthz answers 200 (at most 60 s, or until the process exits). */
export async function waitHealthy(port: number, exited: Promise<unknown>): Promise<void> {
  const deadline = Date.now() + 60_000;
  let gone = false;
  void exited.then(() => (gone = true));
  while (Date.now() < deadline && !gone) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not become healthy");
}

/** SIGTERM, then the exit code and how long the drain took. */
export async function stopShop(child: ChildProcess, exited: Promise<number | null>): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  child.kill("SIGTERM");
  const code = await exited;
  return { code, ms: Date.now() - started };
}
