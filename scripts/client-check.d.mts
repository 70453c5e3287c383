// Types of scripts/client-check.mjs (plain ESM, run by node), for the tests that drive it.
export type PublicKey = { key: string; kid: string };
export type Entitlement = { payload: string; signature: string; kid: string };
export type Verified = { valid: true; payload: Record<string, unknown> } | { valid: false; reason: string; payload?: Record<string, unknown> };
export function hwidHash(hwid: string): string;
export function verifyEntitlement(entitlement: Entitlement, publicKey: PublicKey, options?: { hwid?: string; now?: number }): Verified;
export function fetchPublicKey(url: string): Promise<PublicKey>;
export function activate(url: string, input: { key: string; hwid: string; clientVersion?: string }): Promise<{ token: string; entitlement: Entitlement }>;
export function heartbeat(url: string, token: string): Promise<{ entitlement: Entitlement }>;
export function check(url: string, entitlement: Entitlement, options?: { hwid?: string; now?: number }): Promise<Verified>;
export function main(argv: string[]): Promise<number>;
