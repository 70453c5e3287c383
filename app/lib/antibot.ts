// Spec 8: a 403 answer that carries an anti-bot challenge reloads the page, so that the browser
// meets the challenge as a document (the CDN's page) and comes back; any other 403 is left to the
// caller. The reload guard (spec 9: 10 s) keeps a challenge that does not clear from reloading the
// page in a loop: at most one reload per tab every 10 seconds
// (docs/product/routes.md#failed-calls-in-the-browser).

/** The header a CDN marks its challenge with: Cloudflare's `cf-mitigated: challenge`. */
export const CHALLENGE_HEADER = "cf-mitigated";
export const RELOAD_GUARD_MS = 10_000;
const LAST_RELOAD = "nova.challengeReloadAt";

/** Whether an answer is an anti-bot challenge rather than a refusal of ours. */
export function isChallenge(status: number, headers: Pick<Headers, "get">): boolean {
  return status === 403 && headers.get(CHALLENGE_HEADER)?.trim().toLowerCase() === "challenge";
}

export type ReloadDeps = {
  /** Where the last reload's time is kept: the tab's sessionStorage (it survives the reload). */
  storage: Pick<Storage, "getItem" | "setItem">;
  now: () => number;
  reload: () => void;
};

/** Reloads for a challenge unless the last reload was less than 10 s ago; whether it reloaded. */
export function reloadForChallenge(status: number, headers: Pick<Headers, "get">, deps: ReloadDeps): boolean {
  if (!isChallenge(status, headers)) return false;
  const now = deps.now();
  const last = Number(deps.storage.getItem(LAST_RELOAD) ?? "");
  if (Number.isFinite(last) && last > 0 && now - last < RELOAD_GUARD_MS) return false;
  deps.storage.setItem(LAST_RELOAD, String(now));
  deps.reload();
  return true;
}

/** Watches every fetch of the page (React Router's data requests included) for a challenge. */
export function watchChallenges(win: Window): void {
  const original = win.fetch.bind(win);
  let storage: ReloadDeps["storage"];
  try {
    storage = win.sessionStorage;
  } catch {
    const memory = new Map<string, string>(); // storage refused (privacy settings): this page's memory
    storage = { getItem: (k) => memory.get(k) ?? null, setItem: (k, v) => void memory.set(k, v) };
  }
  win.fetch = async (...args: Parameters<typeof fetch>) => {
    const response = await original(...args);
    reloadForChallenge(response.status, response.headers, { storage, now: () => Date.now(), reload: () => win.location.reload() });
    return response;
  };
}
