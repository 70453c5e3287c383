// The small design system: button links, cards, badges (and the older input the commerce pages
// still use until they move to Conform: components/forms.tsx). Styling lives in styles/app.css.
import type { AnchorHTMLAttributes, InputHTMLAttributes, ReactNode } from "react";
import { Link } from "react-router";

type Variant = "primary" | "secondary" | "ghost" | "danger";

function buttonClass(variant: Variant, block?: boolean) {
  return `btn btn-${variant}${block ? " btn-block" : ""}`;
}

export function ButtonLink({
  to,
  variant = "primary",
  block,
  children,
  reloadDocument,
  ...rest
}: { to: string; variant?: Variant; block?: boolean; reloadDocument?: boolean } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <Link to={to} className={buttonClass(variant, block)} reloadDocument={reloadDocument} {...rest}>
      {children}
    </Link>
  );
}

export function Field({
  label,
  error,
  hint,
  id,
  ...input
}: { label: string; error?: string; hint?: string; id: string } & InputHTMLAttributes<HTMLInputElement>) {
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`field${error ? " field-invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function Card({ children, className, as: As = "div" }: { children: ReactNode; className?: string; as?: "div" | "article" | "section" | "li" }) {
  return <As className={`card ${className ?? ""}`}>{children}</As>;
}

export function Badge({ children, tone = "accent" }: { children: ReactNode; tone?: "accent" | "success" | "warning" | "muted" }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
