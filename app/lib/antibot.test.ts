// The anti-bot reload (spec 8) and its 10 s guard (spec 9), on a tab's storage and clock.
import { describe, expect, it } from "vitest";
import { CHALLENGE_HEADER, RELOAD_GUARD_MS, isChallenge, reloadForChallenge } from "./antibot.ts";

function tab(start = 1_700_000_000_000) {
  const stored = new Map<string, string>();
  const state = { now: start, reloads: 0 };
  return {
    state,
    deps: {
      storage: { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v) },
      now: () => state.now,
      reload: () => void state.reloads++,
    },
  };
}

const challenge = new Headers({ [CHALLENGE_HEADER]: "challenge" });

describe("the anti-bot challenge", () => {
  it("is a 403 with the challenge header; any other 403 or status is not", () => {
    expect(isChallenge(403, challenge)).toBe(true);
    expect(isChallenge(403, new Headers({ [CHALLENGE_HEADER]: " Challenge " }))).toBe(true);
    expect(isChallenge(403, new Headers())).toBe(false);
    expect(isChallenge(403, new Headers({ [CHALLENGE_HEADER]: "block" }))).toBe(false);
    expect(isChallenge(503, challenge)).toBe(false);
    expect(isChallenge(200, challenge)).toBe(false);
  });

  it("reloads the page, then not again within 10 s, then again after", () => {
    const { state, deps } = tab();
    expect(reloadForChallenge(403, challenge, deps)).toBe(true);
    expect(state.reloads).toBe(1);
    // The reloaded page meets the challenge again at once, and 9.999 s later: no loop.
    expect(reloadForChallenge(403, challenge, deps)).toBe(false);
    state.now += RELOAD_GUARD_MS - 1;
    expect(reloadForChallenge(403, challenge, deps)).toBe(false);
    expect(state.reloads).toBe(1);
    state.now += 1;
    expect(reloadForChallenge(403, challenge, deps)).toBe(true);
    expect(state.reloads).toBe(2);
  });

  it("never reloads for a plain 403 or another status", () => {
    const { state, deps } = tab();
    expect(reloadForChallenge(403, new Headers(), deps)).toBe(false);
    expect(reloadForChallenge(500, challenge, deps)).toBe(false);
    expect(state.reloads).toBe(0);
  });

  it("takes a stored time it cannot read for none", () => {
    const { state, deps } = tab();
    deps.storage.setItem("nova.challengeReloadAt", "garbage");
    expect(reloadForChallenge(403, challenge, deps)).toBe(true);
    expect(state.reloads).toBe(1);
  });
});
