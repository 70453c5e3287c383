// The counting of attempts at a secret (docs/product/api.md#rate-limits): a sign-in's password and
// second factor, and the password checks of a password change and of turning two-factor codes off.
import { addressKey } from "../ratelimit/index.ts";
import type { UserRow } from "./accounts.model.ts";
import type { AccountsDeps } from "./deps.ts";

/**
 * The counters of a secret check: the account from this client address, the client address
 * whatever the account, and the account from all addresses. Failures from one address lock only
 * that address out of the account: the owner signs in from another one unless failures from many
 * addresses add up to the account-wide limit. Unknown logins are counted by name, so that they
 * look like known ones.
 */
export type AttemptKeys = { pair: string; ip: string; account: string };

export function attemptKeys(ip: string, user: Pick<UserRow, "id"> | undefined, login: string): AttemptKeys {
  const account = user ? `login:user:${user.id}` : `login:name:${login.trim().normalize("NFC").toLowerCase()}`;
  const address = addressKey(ip);
  return { pair: `${account}:ip:${address}`, ip: `login:ip:${address}`, account };
}

export type Attempts = ReturnType<typeof createAttempts>;

export function createAttempts({ limiter, limits }: Pick<AccountsDeps, "limiter" | "limits">) {
  return {
    /**
     * Counts an attempt at a secret (password or second factor) against all three limits before
     * it is checked, refusing it past any of them; counting first (rather than checking, then
     * counting failures) keeps parallel requests from all slipping under a limit. The narrowest
     * counter comes first, and a refusal gives back what was counted, so attempts refused at a
     * locked (account, address) pair never use up the account's own limit.
     */
    async reserve(keys: AttemptKeys) {
      await limiter.consumeAll([
        [keys.pair, limits.loginAccount],
        [keys.ip, limits.loginIp],
        [keys.account, limits.loginAccountGlobal],
      ]);
    },

    /**
     * An attempt that was no failure: it is given back to the address and account-wide counters;
     * a complete success also resets the (account, address) counter. A right password with a
     * second factor still to come is not complete: a known password would otherwise buy unlimited
     * guesses at the second factor.
     */
    async succeeded(keys: AttemptKeys, complete: boolean) {
      await Promise.all([limiter.release(keys.ip), limiter.release(keys.account), complete ? limiter.reset(keys.pair) : limiter.release(keys.pair)]);
    },
  };
}
