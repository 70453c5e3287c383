// Password hashing: Argon2id with the OWASP-recommended minimum (m=19 MiB, t=2, p=1) for every
// account. The test suite alone may ask for the smallest cost (PASSWORD_HASHING=test, refused
// unless NODE_ENV=test: server/settings.ts): the same Argon2id through the same code, without
// ~30 ms of CPU for each of the thousands of passwords its users set and type
// (docs/decisions/0066-password-cost-of-the-suite.md). A hash names its own parameters, so one
// made at either cost verifies the same way.
import { hash, verify } from "@node-rs/argon2";

const ARGON2ID = 2; // Algorithm.Argon2id; the const enum is not importable under isolatedModules.

/** How hard passwords are hashed: `owasp` everywhere but in the suite's shops. */
export type PasswordHashing = "owasp" | "test";

export const ARGON2ID_PARAMETERS = {
  owasp: { memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 },
  // Argon2's smallest memory is 8 KiB per lane; 64 KiB keeps a real (if cheap) memory pass.
  test: { memoryCost: 64, timeCost: 1, parallelism: 1 },
} as const satisfies Record<PasswordHashing, { memoryCost: number; timeCost: number; parallelism: number }>;

export type Passwords = {
  hash(password: string): Promise<string>;
  /** Whether `password` is the one `passwordHash` was made from; false for a malformed hash. */
  verify(passwordHash: string, password: string): Promise<boolean>;
};

export function createPasswords(hashing: PasswordHashing = "owasp"): Passwords {
  const options = { algorithm: ARGON2ID, ...ARGON2ID_PARAMETERS[hashing] };
  return {
    hash: (password) => hash(password, options),
    async verify(passwordHash, password) {
      try {
        return await verify(passwordHash, password);
      } catch {
        return false;
      }
    },
  };
}

const owasp = createPasswords("owasp");
/** At the production cost, for code without a shop's settings (the demo data of a script). */
export const hashPassword = owasp.hash;
export const verifyPassword = owasp.verify;
