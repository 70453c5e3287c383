// The reCAPTCHA checkbox of the sign-in, registration and reset forms (docs/product/accounts.md#recaptcha).
// Those pages do not hydrate (docs/decisions/0009-forms-on-the-server.md), so the server renders
// what Google's api.js needs to render the widget by itself: a `.g-recaptcha` placeholder with the
// site key, inside the form (the widget's hidden `g-recaptcha-response` field posts with it), and
// the script, deferred so that it finds the placeholder. No React owns what it renders there, so
// nothing can break hydration as it did when the script ran before React hydrated (React error
// #418, issue 7). A page reached by a client-side navigation from a hydrated page is rendered by
// React in the browser instead: there the script is loaded once with render=explicit and an onload
// callback, and the widget rendered by grecaptcha.render into an element React does not own. The
// script's URL is RECAPTCHA_SCRIPT_URL (docs/product/accounts.md#recaptcha), allowed by the page CSP.
import { useEffect, useRef } from "react";
import { useActionData } from "react-router";
import { useLangTag } from "../lib/i18n.tsx";

/** What the loader hands over when a site key is set. */
export type RecaptchaWidget = { siteKey: string; scriptUrl: string };

type Grecaptcha = {
  render(container: HTMLElement, parameters: { sitekey: string; theme?: "dark" | "light" }): number;
  reset(widgetId?: number): void;
};

const ONLOAD = "novaRecaptchaLoaded";

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
    novaRecaptchaLoaded?: () => void;
  }
}

let loading: Promise<Grecaptcha> | undefined;

/** Loads the script once per page; resolves when it calls back (it is ready then). */
function loadRecaptcha(scriptUrl: string, lang: string): Promise<Grecaptcha> {
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    window[ONLOAD] = () => resolve(window.grecaptcha!);
    const url = new URL(scriptUrl, window.location.href);
    url.searchParams.set("render", "explicit");
    url.searchParams.set("onload", ONLOAD);
    url.searchParams.set("hl", lang);
    const script = document.createElement("script");
    script.src = url.href;
    script.async = true;
    script.onerror = () => {
      // A later form may try again; until then the server answers "confirm you are not a robot".
      script.remove();
      loading = undefined;
      reject(new Error("reCAPTCHA did not load"));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export function Recaptcha({ widget }: { widget: RecaptchaWidget | null }) {
  const box = useRef<HTMLDivElement>(null);
  const widgetId = useRef<number | undefined>(undefined);
  const lang = useLangTag();
  const answer = useActionData();
  const siteKey = widget?.siteKey;
  const scriptUrl = widget?.scriptUrl;

  useEffect(() => {
    const container = box.current;
    if (!siteKey || !scriptUrl || !container) return;
    let slot: HTMLDivElement | undefined;
    let gone = false;
    loadRecaptcha(scriptUrl, lang).then(
      (grecaptcha) => {
        if (gone) return;
        slot = document.createElement("div");
        container.appendChild(slot);
        widgetId.current = grecaptcha.render(slot, { sitekey: siteKey, theme: "dark" });
      },
      () => undefined,
    );
    return () => {
      gone = true;
      slot?.remove();
      widgetId.current = undefined;
    };
  }, [siteKey, scriptUrl, lang]);

  // A token is good for one check: after every answer to the form, the widget asks again.
  useEffect(() => {
    if (answer !== undefined && widgetId.current !== undefined) window.grecaptcha?.reset(widgetId.current);
  }, [answer]);

  if (!widget) return null;
  if (typeof document === "undefined") {
    // On the server, for a page that never hydrates (the route says so), so the markup may differ
    // from what the browser would render.
    const src = new URL(widget.scriptUrl);
    src.searchParams.set("hl", lang);
    return (
      <div className="recaptcha">
        <div className="g-recaptcha" data-sitekey={widget.siteKey} data-theme="dark" />
        <script src={src.href} defer />
      </div>
    );
  }
  return <div ref={box} className="recaptcha" />;
}
