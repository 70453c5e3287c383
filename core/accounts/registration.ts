// Registration (docs/product/accounts.md#registration): the one answer that tells whether an
// address is taken, so it sits behind reCAPTCHA and its rate limit.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { addressKey } from "../ratelimit/index.ts";
import { DomainError } from "../shared/errors.ts";
import { randomString } from "../shared/tokens.ts";
import { toUser, type RequestMeta, type User } from "./accounts.model.ts";
import type { RegisterInput } from "./accounts.schema.ts";
import { isUniqueViolation, refuseCommon, requireRecaptcha, type AccountsDeps } from "./deps.ts";
import { issueVerification } from "./verification.ts";

const REFERRAL_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const newReferralCode = () => randomString(8, REFERRAL_ALPHABET);

export function createRegistration(deps: AccountsDeps) {
  const { db, clock, sessions, limiter, recaptcha, limits, currency, background, passwords } = deps;
  return {
    /**
     * A new account, signed in at once; the welcome mail with the link that verifies the address
     * goes after the answer. `referrerCode` is the `referrer` cookie, used when the input names none.
     */
    async register(input: RegisterInput, meta: RequestMeta & { referrerCode?: string }): Promise<{ token: string; user: User }> {
      await requireRecaptcha(recaptcha, input.recaptchaToken, meta.ip);
      await limiter.consume(`register:ip:${addressKey(meta.ip)}`, limits.registerIp);
      refuseCommon(input.password, "password");
      const referralSource = (input.referrer ?? meta.referrerCode)?.trim().toUpperCase();
      const referrer = referralSource ? (await db.select({ id: users.id }).from(users).where(eq(users.referralCode, referralSource)).limit(1))[0] : undefined;
      const passwordHash = await passwords.hash(input.password);
      for (let attempt = 0; ; attempt++) {
        try {
          return await db
            .transaction(async (tx) => {
              const [user] = await tx
                .insert(users)
                .values({
                  email: input.email,
                  username: input.username ?? null,
                  passwordHash,
                  locale: meta.locale,
                  referralCode: newReferralCode(),
                  referrerId: referrer?.id ?? null,
                  visitorId: input.t ?? null,
                  signupIp: meta.ip,
                  createdAt: clock.now(),
                  updatedAt: clock.now(),
                })
                .returning();
              const { token } = await sessions.create(user!.id, "full", meta, tx);
              return { token, user: toUser(user!, currency), row: user! };
            })
            .then(({ token, user, row }) => {
              void background.run(() => issueVerification(deps, row, "welcome"));
              return { token, user };
            });
        } catch (error) {
          if (isUniqueViolation(error, "users_email_lower")) {
            throw new DomainError("email_taken", "errors.email_taken", { fields: { email: "validation.email_taken" } });
          }
          if (isUniqueViolation(error, "users_username_lower")) {
            throw new DomainError("username_taken", "errors.username_taken", { fields: { username: "validation.username_taken" } });
          }
          // Eight characters of 32 rarely collide; a collision just draws another code.
          if (isUniqueViolation(error, "users_referral_code_unique") && attempt < 5) continue;
          throw error;
        }
      }
    },
  };
}
