// Form pieces for the auth and profile pages: a form-level alert, and a submit button that shows
// progress once JavaScript runs (the reCAPTCHA widget is in recaptcha.tsx).
import { useNavigation } from "react-router";
import type { ReactNode } from "react";
import type { FormResult } from "../lib/forms.server.ts";
import { Icon } from "./ui/icons.tsx";

export function FormAlert({ result, intent }: { result: FormResult | undefined; intent?: string }) {
  if (!result?.formError || (intent && result.intent && result.intent !== intent)) return null;
  return (
    <div className="alert alert-error" role="alert">
      <Icon name="alert" size={18} />
      <span>{result.formError}</span>
    </div>
  );
}

export function Notice({ children, tone = "success" }: { children: ReactNode; tone?: "success" | "info" }) {
  return (
    <div className={`alert alert-${tone}`} role="status">
      <Icon name="check" size={18} />
      <span>{children}</span>
    </div>
  );
}

export function SubmitButton({ children, intent, variant = "primary", block = true }: { children: ReactNode; intent?: string; variant?: "primary" | "secondary" | "danger"; block?: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && (!intent || navigation.formData?.get("intent") === intent);
  return (
    <button type="submit" name={intent ? "intent" : undefined} value={intent} className={`btn btn-${variant}${block ? " btn-block" : ""}`} disabled={busy} aria-busy={busy || undefined}>
      {children}
    </button>
  );
}

/** Field error of a form result, if the result belongs to this form. */
export function fieldError(result: FormResult | undefined, field: string, intent?: string): string | undefined {
  if (!result || (intent && result.intent && result.intent !== intent)) return undefined;
  return result.errors?.[field];
}
