// The page forms with Conform (issue 8, point 2; docs/decisions/0009-forms-on-the-server.md), posted
// like a browser without JavaScript: a refused field is marked aria-invalid and described by its
// message (aria-describedby → the element that holds it); the form keeps its HTML constraints but
// leaves checking to the server (noValidate); a DomainError's field keys from the core land on
// their fields; intents the page does not know are refused and do nothing; secrets never come
// back, except the reset code the last step of a reset needs for another try. And no page loads
// Zod in the browser: neither on a document load nor on a client-side navigation.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../core/shared/clock.ts";
import type { MessageKey, Params } from "../../i18n/translate.ts";
import { BUILD_DIR, loadBuild } from "../../server/main.ts";
import { serverLibrariesIn } from "../../scripts/client-bundle.mjs";
import { PASSWORD, PRODUCTS, codeIn, postPageForm, setCookie, registerUser, uniqueEmail, useShop } from "../kit/shop.ts";

const shop = useShop({ smtp: true, pages: true, clock: systemClock });
let serial = 0;
const uniqueIp = () => `10.88.${serial >> 8}.${++serial % 256}`;
const t = (key: MessageKey, params?: Params) => shop.services.catalogs.t("en")(key, params);
/** Text as React writes it into HTML. */
const html = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("'", "&#x27;").replaceAll('"', "&quot;");

function form(path: string, fields: Record<string, string>, cookie?: string) {
  return postPageForm(shop, path, fields, cookie);
}

/** A new user, signed in, with the cookie the pages read. */
async function newUser(options: { balance?: number } = {}) {
  const user = await registerUser(shop, { tag: "forms", ip: uniqueIp(), ...options });
  return { ...user, cookie: `access_token=${user.token}` };
}

/** The opening tag of the element with this id. */
function tagOf(page: string, id: string): string {
  const tag = new RegExp(`<[a-z]+\\b[^>]*\\sid="${id}"[^>]*>`).exec(page)?.[0];
  if (!tag) throw new Error(`no element #${id} in the page`);
  return tag;
}
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
/** The text of the element with this id (no nested elements in our messages). */
const textOf = (page: string, id: string) => new RegExp(`\\sid="${id}"[^>]*>([^<]*)<`).exec(page)?.[1];

describe("a refused field", () => {
  it("is aria-invalid and described by its message, which the page shows inline; the form leaves checking to the server", async () => {
    const res = await form("/en/auth/register", { email: uniqueEmail("short"), password: "short" });
    expect(res.status).toBe(400);
    const page = await res.text();
    const input = tagOf(page, "register-password");
    expect(attribute(input, "aria-invalid")).toBe("true");
    const describedBy = attribute(input, "aria-describedby")!.split(" ");
    expect(describedBy).toContain("register-password-error");
    expect(textOf(page, "register-password-error")).toBe(html(t("validation.password_short")));
    expect(tagOf(page, "register-password-error")).toContain('class="field-error"');
    // The hint stays, and the input names it too.
    expect(describedBy).toContain("register-password-description");
    expect(textOf(page, "register-password-description")).toBe(html(t("auth.field.passwordHint", { min: 8 })));
    // The constraints stay in the markup; the form does not let the browser check them.
    expect(input).toMatch(/\srequired=""/);
    expect(attribute(input, "minLength")).toBe("8");
    expect(attribute(input, "maxLength")).toBe("128");
    expect(tagOf(page, "register")).toMatch(/^<form[^>]*\snoValidate=""/);
    // The form's own message, which the form points at.
    expect(attribute(tagOf(page, "register"), "aria-describedby")).toBe("register-error");
    expect(page).toContain(html(t("errors.validation_failed")));
    // A field that passed is neither invalid nor described by an error; what was typed is back.
    const email = tagOf(page, "register-email");
    expect(attribute(email, "aria-invalid")).toBeUndefined();
    expect(attribute(email, "value")).toMatch(/^short-/);
    expect(attribute(input, "value")).toBeUndefined();
  });

  it("carries the field keys of a DomainError from the core (a taken e-mail, a wrong old password)", async () => {
    const owner = await newUser();
    const taken = await form("/en/auth/register", { email: owner.email, password: PASSWORD });
    expect(taken.status).toBe(409);
    const page = await taken.text();
    expect(attribute(tagOf(page, "register-email"), "aria-describedby")).toBe("register-email-error");
    expect(textOf(page, "register-email-error")).toBe(html(t("validation.email_taken")));
    expect(page).toContain(html(t("errors.email_taken")));

    const wrong = await form("/en/dota2/profile/settings", { intent: "password", old_password: "Not-My-Password-1", new_password: "Brand-New-Lantern-7" }, owner.cookie);
    expect(wrong.status).toBe(400);
    const settings = await wrong.text();
    expect(attribute(tagOf(settings, "password-old_password"), "aria-invalid")).toBe("true");
    expect(textOf(settings, "password-old_password-error")).toBe(html(t("validation.password_wrong")));
    // Only the form that posted shows it: the e-mail form next to it is untouched.
    expect(attribute(tagOf(settings, "email-email"), "aria-invalid")).toBeUndefined();
    expect(settings).not.toContain('id="email-error"');
  });

  it("is answered in the page's language", async () => {
    const res = await form("/auth/register", { email: "not an address", password: PASSWORD });
    expect(res.status).toBe(400);
    expect(textOf(await res.text(), "register-email-error")).toBe(shop.services.catalogs.t("ru")("validation.email"));
  });
});

describe("intents", () => {
  it("refuses one the page does not know (400, the error page) and does nothing", async () => {
    const user = await newUser();
    const settings = await form("/en/dota2/profile/settings", { intent: "delete-everything" }, user.cookie);
    expect(settings.status).toBe(400);
    expect(await settings.text()).toContain(html(t("error.generic.title")));
    // No intent at all is as unknown.
    expect((await form("/en/dota2/profile/settings", { email: uniqueEmail("no-intent") }, user.cookie)).status).toBe(400);
    const me = await shop.request("/v2/web/user/me", { headers: { authorization: `Bearer ${user.token}` } });
    expect(((await me.json()) as { user: { pending_email: string | null } }).user.pending_email).toBeNull();

    // The commerce pages' unions likewise.
    for (const page of ["/en/dota2/profile/subscription", "/en/dota2/profile/balance", `/en/dota2/profile/payment?product=${PRODUCTS.dota2.days1.id}`, "/en/give/subscription"]) {
      expect((await form(page, { intent: "refund-me", amount: "5" }, user.cookie)).status, page).toBe(400);
    }

    const signIn = await form("/en/auth", { intent: "bypass", login: "demo@example.com", password: "demo12345" });
    expect(signIn.status).toBe(400);
    expect(setCookie(signIn, "access_token")).toBeUndefined();
    expect((await form("/en/auth/restore-password", { intent: "skip", email: user.email })).status).toBe(400);
  });

  it("runs the one posted: the sessions form's two buttons", async () => {
    const user = await newUser();
    const other = await newUser();
    const res = await form("/en/dota2/profile/settings", { intent: "signout" }, user.cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/en/auth");
    expect((await shop.request("/v2/web/user/me", { headers: { authorization: `Bearer ${user.token}` } })).status).toBe(401);
    const others = await form("/en/dota2/profile/settings", { intent: "signout-others" }, other.cookie);
    expect(others.status).toBe(200);
    expect(await others.text()).toContain(html(t("settings.sessions.done")));
  });

  it("ignores Conform's own control fields, which no page posts, instead of failing on them", async () => {
    const res = await form("/en/auth", { intent: "password", login: "demo@example.com", password: "wrong password", __intent__: "{not json", __state__: "{" });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain(html(t("errors.invalid_credentials")));
  });
});

describe("the commerce forms", () => {
  it("mark a refused field the same way, and tell the page the error's code (a balance too small)", async () => {
    const user = await newUser();
    const give = await form("/en/give/subscription", { intent: "give", product: String(PRODUCTS.dota2.days1.id), recipient: "x".repeat(300) }, user.cookie);
    expect(give.status).toBe(400);
    const page = await give.text();
    expect(attribute(tagOf(page, "give-recipient"), "aria-invalid")).toBe("true");
    expect(textOf(page, "give-recipient-error")).toBe(html(t("validation.too_long")));
    expect(attribute(tagOf(page, "give-recipient"), "maxLength")).toBe("254");
    // The select keeps the product that was posted.
    expect(page).toMatch(/<option value="1" selected="">/);

    const pay = await form(`/en/dota2/profile/payment?product=${PRODUCTS.dota2.days1.id}`, { intent: "balance" }, user.cookie);
    expect(pay.status).toBe(409);
    const payment = await pay.text();
    expect(payment).toContain(html(t("errors.insufficient_balance")));
    expect(payment).toContain(html(t("payment.topUp")));
  });

  it("reset after a success, so that a second click does not give again", async () => {
    const user = await newUser({ balance: 5000 });
    const given = await form("/en/give/subscription", { intent: "give", product: String(PRODUCTS.dota2.days7.id), recipient: "" }, user.cookie);
    expect(given.status).toBe(200);
    const page = await given.text();
    expect(page).toContain(html(t("gift.give.codeHint")));
    expect(attribute(tagOf(page, "give-recipient"), "value")).toBeUndefined();
  });
});

describe("the reset's last step", () => {
  it("keeps the verified code after a refused password, so the next try can finish; the code never comes back otherwise", async () => {
    const user = await newUser();
    const requested = await form("/en/auth/restore-password", { intent: "request", email: user.email });
    expect(requested.status).toBe(302);
    await shop.services.background.drain();
    const mail = shop.smtp.messages.filter((m) => m.envelope.to.includes(user.email)).at(-1)!;
    const code = codeIn(mail);

    // A wrong code typed in the second step is not filled in again.
    const wrong = await form("/en/auth/restore-password", { intent: "verify", email: user.email, resetCode: code === "000000" ? "111111" : "000000" });
    expect(wrong.status).toBe(400);
    expect(attribute(tagOf(await wrong.text(), "reset-code-resetCode"), "value")).toBeUndefined();

    const verified = await form("/en/auth/restore-password", { intent: "verify", email: user.email, resetCode: code });
    expect(verified.status).toBe(200);
    expect(await verified.text()).toContain(`name="resetCode" value="${code}"`);

    // A password on the common list is refused; the page still holds the code for another try.
    const common = await form("/en/auth/restore-password", { intent: "reset", email: user.email, resetCode: code, password: "password1" });
    expect(common.status).toBe(400);
    const page = await common.text();
    expect(textOf(page, "reset-password-password-error")).toBe(html(t("validation.password_common")));
    expect(page).toContain(`name="resetCode" value="${code}"`);
    expect(page).toContain(`name="email" value="${user.email}"`);
    expect(attribute(tagOf(page, "reset-password-password"), "value")).toBeUndefined();

    const done = await form("/en/auth/restore-password", { intent: "reset", email: user.email, resetCode: code, password: "Fresh-Meadow-Lantern-9" });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/en/auth?notice=password_reset");
    const login = await shop.request("/v2/web/login", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": uniqueIp() },
      body: JSON.stringify({ login: user.email, password: "Fresh-Meadow-Lantern-9" }),
    });
    expect(login.status).toBe(200);
  });
});

describe("the browser's JavaScript", () => {
  let build: ServerBuild;
  beforeAll(async () => {
    build = await loadBuild();
  });

  /** A route's browser module and every chunk it imports (what a document load preloads, or a client-side navigation loads). */
  const filesOf = (id: string) => {
    const route = build.assets.routes[id]!;
    return [route.module, ...(route.imports ?? [])];
  };
  // Zod told by the fingerprint of scripts/client-bundle.mjs, which the bundle test proves on the real library.
  const hasZod = (file: string) => serverLibrariesIn(readFileSync(path.join(BUILD_DIR, "client", file), "utf8")).includes("zod");

  it("holds no Zod for any page, in any language", () => {
    const routes = Object.keys(build.assets.routes);
    expect(routes).toContain("en/settings");
    expect(routes).toContain("ru/register");
    const entry = [build.assets.entry.module, ...build.assets.entry.imports];
    const withZod = [...new Set([...entry, ...routes.flatMap(filesOf)])].filter(hasZod);
    expect(withZod).toEqual([]);
  });

  it("is none on the form pages: they do not hydrate, so Conform runs on the server only", async () => {
    const user = await newUser();
    for (const [page, cookie] of [
      ["/en/auth", undefined],
      ["/auth/register", undefined],
      ["/es/auth/restore-password", undefined],
      ["/en/dota2/profile/settings", user.cookie],
      [`/en/dota2/profile/payment?product=${PRODUCTS.dota2.days1.id}`, user.cookie],
      ["/en/give/subscription", user.cookie],
    ] as const) {
      const res = await shop.request(page, cookie ? { headers: { cookie } } : {});
      expect(res.status, page).toBe(200);
      const body = await res.text();
      // Only the small inline scripts every page carries (time zone cookie, prefetch): no module, no hydration.
      expect(body, page).not.toMatch(/<script\b[^>]*\b(src|type="module")/);
      expect(body, page).not.toContain("__reactRouterContext");
      expect(body, page).not.toContain('rel="modulepreload"');
    }
  });
});
