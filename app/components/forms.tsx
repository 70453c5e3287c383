// Form pieces that need no form library: a submit button that shows progress where JavaScript
// runs, the message of a refused form, a notice. The forms themselves are in page-form.tsx
// (Conform); a hydrated page that only needs these pieces loads none of it. The reCAPTCHA widget
// is in recaptcha.tsx.
import { useNavigation } from "react-router";
import type { ReactNode } from "react";
import type { SubmissionResult } from "@conform-to/dom";
import { Icon } from "./ui/icons.tsx";

/**
 * The form-level messages of a refusal's Conform result, for a form with no fields on a page that
 * hydrates (page-form.tsx, and its ~9 KiB, is for forms with fields).
 */
export function messagesOf(result: SubmissionResult<string[]> | undefined): string[] | undefined {
  return result?.error?.[""] ?? undefined;
}

/** The message of a refused form as a whole. */
export function FormMessage({ errors, id }: { errors: string[] | undefined; id?: string }) {
  if (!errors?.length) return null;
  return (
    <div className="alert alert-error" role="alert" id={id}>
      <Icon name="alert" size={18} />
      <span>{errors.join(" ")}</span>
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

/** Posts the form, naming its task in `intent` on a page of several; busy while it is under way. */
export function SubmitButton({
  children,
  intent,
  variant = "primary",
  block = true,
  disabled = false,
  describedBy,
}: {
  children: ReactNode;
  intent?: string;
  variant?: "primary" | "secondary" | "danger";
  block?: boolean;
  /** Not possible now (e.g. the balance is short); `describedBy` names the element that says why. */
  disabled?: boolean;
  describedBy?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && (!intent || navigation.formData?.get("intent") === intent);
  return (
    <button
      type="submit"
      name={intent ? "intent" : undefined}
      value={intent}
      className={`btn btn-${variant}${block ? " btn-block" : ""}`}
      disabled={busy || disabled}
      aria-busy={busy || undefined}
      aria-describedby={describedBy}
    >
      {children}
    </button>
  );
}
