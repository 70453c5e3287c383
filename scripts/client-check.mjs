#!/usr/bin/env node
// The reference client of NOVA's client API (docs/product/delivery.md#reference-client): what a game's
// client program does to learn whether its user may play, in one small file with no dependencies
// (Node 20+). Copy it; the checks are the point.
//
//   node scripts/client-check.mjs activate  --url https://shop.example --key KEY --hwid DEVICE [--client-version 1.2.0] [--save FILE]
//   node scripts/client-check.mjs heartbeat --url https://shop.example --token TOKEN [--hwid DEVICE] [--save FILE]
//   node scripts/client-check.mjs verify    --url https://shop.example --file FILE [--hwid DEVICE]
//   node scripts/client-check.mjs new-key   (prints a fresh CLIENT_SIGNING_KEY for the shop)
//
// `--now ISO` checks as of another instant than this machine's clock (replaying a saved file, tests).
// It prints one JSON object: { ok, entitled, reason?, payload?, token? }. Exit status: 0 entitled,
// 1 verified but not entitled, 2 the entitlement failed verification (signature, key id, device or
// validity), 3 the call failed (the shop's error code is printed). `--save FILE` keeps the
// entitlement (and the token) as JSON; `verify` checks such a file again, offline but for the key.
//
// What a client must check before it believes an entitlement:
//   1. the signature: Ed25519 over the payload's exact bytes, with the shop's public key whose `kid`
//      the entitlement names (fetch /v2/client/public-key again when the kid is unknown: keys rotate);
//   2. the device: the payload's `hwid` is the hex SHA-256 of this device's own hwid;
//   3. the time: `valid_until` is still ahead (at most 15 minutes), so a copied old answer is useless;
//   4. then `entitled`. Heartbeat again before `valid_until`; without an answer, stop at it.
/* global fetch */
import { createHash, createPublicKey, generateKeyPairSync, verify } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** The hex SHA-256 of a device id: how the shop names the device in an entitlement. */
export function hwidHash(hwid) {
  return createHash("sha256").update(hwid, "utf8").digest("hex");
}

/**
 * Checks an entitlement `{ payload, signature, kid }` against the shop's public key `{ key, kid }`.
 * Returns `{ valid: true, payload }` or `{ valid: false, reason }`; never throws.
 */
export function verifyEntitlement(entitlement, publicKey, { hwid, now = Date.now() } = {}) {
  if (!entitlement || typeof entitlement.payload !== "string" || typeof entitlement.signature !== "string") {
    return { valid: false, reason: "malformed" };
  }
  if (entitlement.kid !== publicKey.kid) return { valid: false, reason: "unknown_kid" };
  let signed = false;
  try {
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: publicKey.key }, format: "jwk" });
    signed = verify(null, Buffer.from(entitlement.payload, "utf8"), key, Buffer.from(entitlement.signature, "base64url"));
  } catch {
    signed = false;
  }
  if (!signed) return { valid: false, reason: "bad_signature" };
  let payload;
  try {
    payload = JSON.parse(entitlement.payload);
  } catch {
    return { valid: false, reason: "malformed" };
  }
  if (hwid !== undefined && payload.hwid !== hwidHash(hwid)) return { valid: false, reason: "other_device", payload };
  if (!(Date.parse(payload.valid_until) > now)) return { valid: false, reason: "stale", payload };
  return { valid: true, payload };
}

class CallFailed extends Error {
  constructor(status, body) {
    super(`${status} ${body?.code ?? ""}`.trim());
    this.status = status;
    this.body = body;
  }
}

async function call(url, path, { method = "GET", token, json } = {}) {
  const headers = { Accept: "application/json" };
  if (json !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(new URL(path, url), { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
  let body;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (!response.ok || body?.status !== true) throw new CallFailed(response.status, body);
  return body;
}

/** `GET /v2/client/public-key` → `{ key, kid, alg }`. */
export async function fetchPublicKey(url) {
  const { key, kid, alg } = await call(url, "/v2/client/public-key");
  if (alg !== "Ed25519") throw new Error(`unexpected algorithm ${alg}`);
  return { key, kid };
}

/** `POST /v2/client/activate` → `{ token, entitlement }`. */
export async function activate(url, { key, hwid, clientVersion }) {
  const { token, entitlement } = await call(url, "/v2/client/activate", { method: "POST", json: { key, hwid, client_version: clientVersion } });
  return { token, entitlement };
}

/** `POST /v2/client/heartbeat` with the device's token → `{ entitlement }`. */
export async function heartbeat(url, token) {
  const { entitlement } = await call(url, "/v2/client/heartbeat", { method: "POST", token });
  return { entitlement };
}

/** Verifies with the shop's key, fetching it again once when the entitlement names another (a rotation). */
export async function check(url, entitlement, options) {
  let publicKey = await fetchPublicKey(url);
  if (entitlement?.kid !== publicKey.kid) publicKey = await fetchPublicKey(url);
  return verifyEntitlement(entitlement, publicKey, options);
}

function parseArgs(argv) {
  const [command, ...rest] = argv;
  const options = {};
  for (let i = 0; i < rest.length; i++) {
    const name = rest[i];
    if (!name.startsWith("--")) throw new Error(`unexpected argument ${name}`);
    options[name.slice(2)] = rest[++i];
  }
  return { command, options };
}

function required(options, name) {
  const value = options[name];
  if (value === undefined || value === "") throw new Error(`--${name} is required`);
  return value;
}

/** Runs a command line; returns the exit status and what it printed. */
export async function main(argv) {
  const { command, options } = parseArgs(argv);
  const print = (result) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (command === "new-key") {
    const { privateKey } = generateKeyPairSync("ed25519");
    // The PKCS#8 DER of an Ed25519 key ends with its 32-byte seed.
    process.stdout.write(`${privateKey.export({ format: "der", type: "pkcs8" }).subarray(-32).toString("base64url")}\n`);
    return 0;
  }
  const url = required(options, "url");
  let entitlement;
  let token;
  try {
    if (command === "activate") {
      ({ token, entitlement } = await activate(url, { key: required(options, "key"), hwid: required(options, "hwid"), clientVersion: options["client-version"] }));
    } else if (command === "heartbeat") {
      token = required(options, "token");
      ({ entitlement } = await heartbeat(url, token));
    } else if (command === "verify") {
      ({ entitlement, token } = JSON.parse(readFileSync(required(options, "file"), "utf8")));
    } else {
      throw new Error(`unknown command ${command ?? "(none)"}: activate, heartbeat, verify or new-key`);
    }
  } catch (error) {
    if (error instanceof CallFailed) {
      print({ ok: false, status: error.status, code: error.body?.code ?? null, message: error.body?.message ?? null });
      return 3;
    }
    throw error;
  }
  if (options.save) writeFileSync(options.save, JSON.stringify({ token, entitlement }, null, 2));
  const now = options.now === undefined ? Date.now() : Date.parse(options.now);
  if (Number.isNaN(now)) throw new Error("--now must be an ISO 8601 instant");
  const result = await check(url, entitlement, { hwid: options.hwid, now });
  if (!result.valid) {
    print({ ok: false, entitled: false, reason: result.reason, payload: result.payload ?? null });
    return 2;
  }
  print({ ok: true, entitled: result.payload.entitled === true, payload: result.payload, ...(command === "activate" ? { token } : {}) });
  return result.payload.entitled === true ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main(process.argv.slice(2)).then(
    (status) => process.exit(status),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(3);
    },
  );
}
