// Child processes of the benchmark: start them (optionally pinned to a CPU), wait for them, and stop
// every one of them on the way out, whether the run ends, fails or is interrupted.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";

/* global fetch */

const children = new Set();

/** `taskset` pinning: the load generator on CPU 0, the servers on CPU 1 (if there are two CPUs). */
export function pinning() {
  if (process.env.BENCH_PIN === "0") return null;
  if (os.availableParallelism() < 2 || !existsSync("/usr/bin/taskset")) return null;
  return { loadCpu: 0, serverCpu: 1 };
}

/** Pins this process (all its threads) to one CPU; true on success. */
export function pinSelf(cpu) {
  const result = spawnSync("/usr/bin/taskset", ["-a", "-cp", String(cpu), String(process.pid)], { stdio: "pipe" });
  return result.status === 0;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node args…` (under `taskset -c cpu` when given). The last lines of its output are kept
 * for the error message if it dies, and lines matching `keep` are collected for the report.
 */
export function startNode(name, args, { env, cwd, cpu, ipc = false }) {
  const command = cpu === undefined ? process.execPath : "/usr/bin/taskset";
  const argv = cpu === undefined ? args : ["-c", String(cpu), process.execPath, ...args];
  const child = spawn(command, argv, {
    cwd,
    env,
    stdio: ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  const tail = [];
  const record = (chunk) => {
    for (const line of String(chunk).split("\n")) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > 40) tail.shift();
    }
  };
  child.stdout.on("data", record);
  child.stderr.on("data", record);
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const handle = { name, child, tail, exited, status: null, output: () => tail.join("\n") };
  children.add(handle);
  exited.then((status) => {
    handle.status = status;
    children.delete(handle);
  });
  return handle;
}

/** Resolves when `url` answers 200; rejects when the process exits first or after `timeoutMs`. */
export async function waitForOk(handle, url, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  let dead = null;
  handle.exited.then((status) => (dead = status));
  while (Date.now() < deadline) {
    if (dead) throw new Error(`${handle.name} exited (${dead.code ?? dead.signal}) before ${url} answered:\n${handle.output()}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${handle.name}: ${url} did not answer 200 within ${timeoutMs / 1000} s:\n${handle.output()}`);
}

/** The first IPC message of the child, or an error if it exits first. */
export function firstMessage(handle, timeoutMs = 120_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${handle.name}: no message within ${timeoutMs / 1000} s:\n${handle.output()}`)), timeoutMs);
    handle.child.once("message", (message) => {
      clearTimeout(timer);
      resolve(message);
    });
    handle.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${handle.name} exited (${code ?? signal}):\n${handle.output()}`));
    });
  });
}

/** SIGTERM every child, SIGKILL whatever is still running after `graceMs`. */
export async function stopAll(graceMs = 5000) {
  const running = [...children];
  for (const handle of running) handle.child.kill("SIGTERM");
  const timer = setTimeout(() => {
    for (const handle of children) handle.child.kill("SIGKILL");
  }, graceMs);
  await Promise.all(running.map((handle) => handle.exited));
  clearTimeout(timer);
}

/**
 * CPU seconds (user + system, all threads) a process has used so far, from /proc (Linux); null
 * elsewhere. Unlike req/s it does not depend on what else runs on the machine.
 */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // With WEB_CONCURRENCY the answering processes are the cluster's workers: their CPU counts too.
    let children = 0;
    for (const child of childPids(pid)) children += cpuSeconds(child) ?? 0;
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS + children;
  } catch {
    return null;
  }
}

function childPids(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;

/** Throws if one of `handles` has exited (with the end of its output). */
export function assertRunning(...handles) {
  for (const handle of handles) {
    if (handle.status) {
      throw new Error(`${handle.name} exited (${handle.status.code ?? handle.status.signal}) during the run:\n${handle.output()}`);
    }
  }
}

/** Last resort (process "exit" handlers must be synchronous). */
export function killAllNow() {
  for (const handle of children) handle.child.kill("SIGKILL");
}
