// RFC 6238 TOTP (docs/product/accounts.md#two-factor-authentication): SHA-1, 6 digits, 30 s, one step of drift either way.
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";

const PERIOD = 30;

function totp(secret: string, label = "") {
  return new TOTP({ issuer: "NOVA", label, algorithm: "SHA1", digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUrl(secret: string, accountName: string): string {
  return totp(secret, accountName).toString();
}

export async function qrDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

/** The time step a valid code belongs to, or null. The caller refuses steps already used. */
export function matchTotp(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD) + delta;
}

/** The code of a secret at a time: for tests and the demo. */
export function totpAt(secret: string, now: Date): string {
  return totp(secret).generate({ timestamp: now.getTime() });
}
