// The Ed25519 key that signs the client API's entitlements (docs/product/delivery.md#signed-entitlements).
// It comes from CLIENT_SIGNING_KEY, or — when that is unset — from the database, where the first
// process to start makes one under an advisory lock, so every process and host signs with the same
// key. A key id (`kid`) names it in every entitlement and in the public-key answer, so a key can be
// rotated: set a new CLIENT_SIGNING_KEY (or retire the stored one) and clients fetch the new key
// when they meet an unknown `kid`.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, hkdfSync, sign, verify, type KeyObject } from "node:crypto";
import { and, desc, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { clientSigningKeys } from "../../db/schema/index.ts";

export type Signer = {
  kid: string;
  /** The raw 32-byte public key, base64url. */
  publicKey: string;
  /** Ed25519 signature of the bytes, base64url. */
  sign(data: Buffer): string;
  /** A 32-byte secret derived from the private key for another purpose (HKDF-SHA256 with `label`). */
  derive(label: string): Buffer;
};

/** PKCS#8 DER of an Ed25519 private key is this prefix followed by the 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/** The raw public key of a key, base64url. */
function rawPublicKey(key: KeyObject): string {
  const jwk = createPublicKey(key).export({ format: "jwk" });
  return jwk.x!;
}

/** The key id: the first 16 characters of the base64url SHA-256 of the raw public key. */
export function keyIdOf(publicKeyBase64url: string): string {
  return createHash("sha256").update(Buffer.from(publicKeyBase64url, "base64url")).digest("base64url").slice(0, 16);
}

/**
 * Reads CLIENT_SIGNING_KEY: a PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"), the PKCS#8 DER in base64 or
 * base64url, or the bare 32-byte seed in base64 or base64url. Throws when it is no Ed25519 private key.
 */
export function parsePrivateKey(text: string): KeyObject {
  const value = text.trim();
  let key: KeyObject;
  if (value.startsWith("-----BEGIN")) {
    key = createPrivateKey(value.replace(/\\n/g, "\n"));
  } else {
    const bytes = Buffer.from(value.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""), "base64url");
    const der = bytes.length === 32 ? Buffer.concat([PKCS8_ED25519_PREFIX, bytes]) : bytes;
    key = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  }
  if (key.asymmetricKeyType !== "ed25519") throw new Error(`an ${key.asymmetricKeyType ?? "unknown"} key, not Ed25519`);
  return key;
}

function signerOf(privateKey: KeyObject): Signer {
  const publicKey = rawPublicKey(privateKey);
  return {
    kid: keyIdOf(publicKey),
    publicKey,
    sign: (data) => sign(null, data, privateKey).toString("base64url"),
    derive: (label) => Buffer.from(hkdfSync("sha256", privateKey.export({ format: "der", type: "pkcs8" }), Buffer.alloc(0), label, 32)),
  };
}

/** Whether `signature` (base64url) is the Ed25519 signature of `data` by the raw public key (base64url). */
export function verifySignature(publicKeyBase64url: string, data: Buffer, signature: string): boolean {
  const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: publicKeyBase64url }, format: "jwk" });
  try {
    return verify(null, data, key, Buffer.from(signature, "base64url"));
  } catch {
    return false;
  }
}

/** An arbitrary constant naming the advisory lock under which the stored key is made. */
const SIGNING_KEY_LOCK = 0x4e4f5641_01;

/**
 * The signer: from the setting when given, else the newest unretired key in the database, made (and
 * stored) by whichever process gets there first.
 */
export async function loadSigner(db: Db, configured: string | undefined): Promise<Signer> {
  if (configured) return signerOf(parsePrivateKey(configured));
  const stored = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SIGNING_KEY_LOCK})`);
    const [current] = await tx
      .select()
      .from(clientSigningKeys)
      .where(and(isNull(clientSigningKeys.retiredAt)))
      .orderBy(desc(clientSigningKeys.createdAt))
      .limit(1);
    if (current) return current;
    const { privateKey } = generateKeyPairSync("ed25519");
    const publicKey = rawPublicKey(privateKey);
    const [made] = await tx
      .insert(clientSigningKeys)
      .values({ kid: keyIdOf(publicKey), publicKey, privateKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64url") })
      .returning();
    return made!;
  });
  return signerOf(createPrivateKey({ key: Buffer.from(stored.privateKey, "base64url"), format: "der", type: "pkcs8" }));
}
