// A loopback reCAPTCHA server for tests, on 127.0.0.1:
// - siteverify, as Google speaks it (POST an application/x-www-form-urlencoded body with secret,
//   response and optionally remoteip; answer JSON { success, score?, "error-codes"? }), recording
//   every request it got;
// - a stand-in for Google's widget script, /recaptcha/api.js (the shop's RECAPTCHA_SCRIPT_URL,
//   docs/product/accounts.md#recaptcha), that behaves like Google's where the shop depends on it: without
//   render=explicit it renders into every `.g-recaptcha` element as soon as it runs (which is what
//   broke hydration, issue 7); with render=explicit it calls the `onload` callback and renders only
//   through grecaptcha.render(container, { sitekey, theme, callback }); getResponse and reset work
//   per widget; an unknown site key shows Google's error instead of a checkbox. Ticking its
//   checkbox ("I'm not a robot") puts a fresh token in a hidden `g-recaptcha-response` textarea
//   inside the container; siteverify accepts each such token once, like Google
//   ("timeout-or-duplicate" after that).
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export type SiteverifyRequest = {
  method: string;
  contentType: string;
  /** The decoded form fields. */
  form: Record<string, string>;
};

export type TestRecaptchaServer = {
  /** http://127.0.0.1:<port>/recaptcha/api/siteverify */
  url: string;
  /** http://127.0.0.1:<port>/recaptcha/api.js: the stand-in widget script. */
  scriptUrl: string;
  /** The site key the stand-in widget accepts. */
  siteKey: string;
  /** The secret the server accepts; any other secret gets success: false. */
  secret: string;
  /** A token answered with success: true. */
  goodToken: string;
  /** A token answered with success: false. */
  badToken: string;
  /** A token answered with success: true but a v3 score of 0.1 (a likely bot). */
  lowScoreToken: string;
  /** A token answered with HTTP 500 (the verify service failing). */
  brokenToken: string;
  requests: SiteverifyRequest[];
  stop(): Promise<void>;
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Tokens the stand-in widget makes when its box is ticked. */
const WIDGET_TOKEN = /^widget-[a-z0-9]{24}$/;

/** The stand-in api.js; everything it shows is made through the DOM and CSSOM (the page CSP allows no inline style). */
function widgetScript(siteKey: string): string {
  const labels = { en: "I'm not a robot", ru: "Я не робот", "zh-CN": "进行人机身份验证", es: "No soy un robot", hi: "मैं रोबोट नहीं हूँ", pt: "Não sou um robô", id: "Saya bukan robot" };
  return `(function () {
  "use strict";
  var SITE_KEY = ${JSON.stringify(siteKey)};
  var LABELS = ${JSON.stringify(labels)};
  var params = new URL(document.currentScript.src).searchParams;
  var label = LABELS[params.get("hl")] || LABELS.en;
  var widgets = [];
  function token() {
    var bytes = new Uint8Array(24), out = "";
    crypto.getRandomValues(bytes);
    for (var i = 0; i < bytes.length; i++) out += "abcdefghijklmnopqrstuvwxyz0123456789"[bytes[i] % 36];
    return "widget-" + out;
  }
  function render(container, options) {
    if (typeof container === "string") container = document.getElementById(container);
    if (!container) throw new Error("reCAPTCHA placeholder element must be an element or id");
    if (container.childElementCount > 0) throw new Error("reCAPTCHA has already been rendered in this element");
    options = options || {};
    var id = widgets.length;
    var dark = (options.theme || container.getAttribute("data-theme")) === "dark";
    var box = document.createElement("div");
    Object.assign(box.style, { width: "304px", height: "78px", boxSizing: "border-box", display: "flex", alignItems: "center", gap: "12px", padding: "0 12px",
      border: "1px solid " + (dark ? "#4a4a4a" : "#d3d3d3"), borderRadius: "3px", background: dark ? "#222" : "#f9f9f9", color: dark ? "#fff" : "#000", font: "14px Roboto, Arial, sans-serif" });
    var response = document.createElement("textarea");
    response.name = "g-recaptcha-response";
    response.className = "g-recaptcha-response";
    if (id === 0) response.id = "g-recaptcha-response";
    response.style.display = "none";
    if ((options.sitekey || container.getAttribute("data-sitekey")) !== SITE_KEY) {
      box.textContent = "ERROR for site owner: Invalid site key";
      container.append(box, response);
      widgets.push({ response: response });
      return id;
    }
    var check = document.createElement("input");
    check.type = "checkbox";
    check.id = "stand-in-recaptcha-" + id;
    Object.assign(check.style, { width: "24px", height: "24px", margin: "0" });
    var text = document.createElement("label");
    text.htmlFor = check.id;
    text.textContent = label;
    var brand = document.createElement("span");
    brand.textContent = "reCAPTCHA";
    Object.assign(brand.style, { marginLeft: "auto", fontSize: "10px", opacity: "0.7" });
    check.addEventListener("change", function () {
      response.value = check.checked ? token() : "";
      if (check.checked && typeof options.callback === "function") options.callback(response.value);
    });
    box.append(check, text, brand);
    container.append(box, response);
    widgets.push({ response: response, check: check });
    return id;
  }
  function widget(id) {
    var found = widgets[id === undefined ? 0 : id];
    if (!found) throw new Error("Invalid reCAPTCHA client id: " + id);
    return found;
  }
  window.grecaptcha = {
    render: render,
    getResponse: function (id) { return widget(id).response.value; },
    reset: function (id) { var w = widget(id); w.response.value = ""; if (w.check) w.check.checked = false; },
    ready: function (callback) { setTimeout(callback, 0); },
  };
  setTimeout(function () {
    if (params.get("render") !== "explicit") {
      var placeholders = document.querySelectorAll(".g-recaptcha");
      for (var i = 0; i < placeholders.length; i++) render(placeholders[i]);
    }
    var onload = params.get("onload");
    if (onload && typeof window[onload] === "function") window[onload]();
  }, 0);
})();
`;
}

export async function startRecaptchaServer(options: { secret?: string; siteKey?: string } = {}): Promise<TestRecaptchaServer> {
  const secret = options.secret ?? "test-recaptcha-secret";
  const siteKey = options.siteKey ?? "test-recaptcha-site-key";
  const tokens = { goodToken: "good-captcha-token", badToken: "bad-captcha-token", lowScoreToken: "low-score-token", brokenToken: "broken-token" };
  const requests: SiteverifyRequest[] = [];
  const spent = new Set<string>();
  const script = widgetScript(siteKey);

  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url?.split("?")[0] === "/recaptcha/api.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" });
      res.end(script);
      return;
    }
    void (async () => {
      const raw = await readBody(req);
      const form = Object.fromEntries(new URLSearchParams(raw));
      requests.push({ method: req.method ?? "", contentType: req.headers["content-type"] ?? "", form });
      const answer = (status: number, body: object) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.method !== "POST" || !req.url?.startsWith("/recaptcha/api/siteverify")) return answer(404, { success: false });
      if (form.secret !== secret) return answer(200, { success: false, "error-codes": ["invalid-input-secret"] });
      if (WIDGET_TOKEN.test(form.response ?? "")) {
        if (spent.has(form.response!)) return answer(200, { success: false, "error-codes": ["timeout-or-duplicate"] });
        spent.add(form.response!);
        return answer(200, { success: true, challenge_ts: new Date().toISOString(), hostname: "127.0.0.1" });
      }
      switch (form.response) {
        case tokens.goodToken:
          return answer(200, { success: true, score: 0.9, action: "submit", hostname: "localhost" });
        case tokens.lowScoreToken:
          return answer(200, { success: true, score: 0.1, action: "submit", hostname: "localhost" });
        case tokens.brokenToken:
          return answer(500, { error: "internal" });
        default:
          return answer(200, { success: false, "error-codes": ["invalid-input-response"] });
      }
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let stopped: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/recaptcha/api/siteverify`,
    scriptUrl: `http://127.0.0.1:${port}/recaptcha/api.js`,
    siteKey,
    secret,
    ...tokens,
    requests,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return stopped;
    },
  };
}
