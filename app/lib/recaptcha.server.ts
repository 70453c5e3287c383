// The reCAPTCHA widget of a form page: shown when a site key is set (docs/product/accounts.md#recaptcha).
import type { AppLoadContext } from "react-router";
import type { RecaptchaWidget } from "../components/recaptcha.tsx";

export function recaptchaWidget(context: AppLoadContext): RecaptchaWidget | null {
  const { RECAPTCHA_SITE_KEY, RECAPTCHA_SCRIPT_URL } = context.services.settings;
  return RECAPTCHA_SITE_KEY ? { siteKey: RECAPTCHA_SITE_KEY, scriptUrl: RECAPTCHA_SCRIPT_URL } : null;
}
