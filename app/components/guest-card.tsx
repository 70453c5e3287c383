// The card a guest page sits in — sign-in, registration, reset, and the pages of a mailed link or
// an SSO ticket (`centered`): its heading, a lead, the page's forms, links to the pages around it.
import type { ReactNode } from "react";

export function GuestCard({ title, lead, links, centered = false, children }: { title: string; lead?: ReactNode; links?: ReactNode; centered?: boolean; children?: ReactNode }) {
  return (
    <section className={`card auth-card${centered ? " centered" : ""}`} aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      {lead !== undefined && <p className="muted">{lead}</p>}
      {children}
      {links !== undefined && <p className="auth-links">{links}</p>}
    </section>
  );
}
