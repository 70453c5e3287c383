// The small design system: button links, cards, badges (fields are in components/page-form.tsx,
// buttons and notices of forms in components/forms.tsx). Styling lives in styles/app.css.
import type { AnchorHTMLAttributes, ReactNode } from "react";
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

export function Card({ children, className, as: As = "div" }: { children: ReactNode; className?: string; as?: "div" | "article" | "section" | "li" }) {
  return <As className={`card ${className ?? ""}`}>{children}</As>;
}

export function Badge({ children, tone = "accent" }: { children: ReactNode; tone?: "accent" | "success" | "warning" | "muted" }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
