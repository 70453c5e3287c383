// The support contacts (SUPPORT_EMAIL, SUPPORT_TELEGRAM, SUPPORT_DISCORD), for the support page
// and wherever a page points a buyer to help (docs/product/routes.md#legal-and-support-pages).
import type { Settings } from "../../server/settings.ts";
import type { SupportContact } from "../components/legal.tsx";

export function supportContacts(settings: Settings): SupportContact[] {
  const contacts: SupportContact[] = [{ kind: "email", label: settings.SUPPORT_EMAIL, href: `mailto:${settings.SUPPORT_EMAIL}` }];
  if (settings.SUPPORT_TELEGRAM) contacts.push({ kind: "telegram", label: settings.SUPPORT_TELEGRAM.label, href: settings.SUPPORT_TELEGRAM.url });
  if (settings.SUPPORT_DISCORD) contacts.push({ kind: "discord", label: settings.SUPPORT_DISCORD.replace(/^https:\/\//, ""), href: settings.SUPPORT_DISCORD });
  return contacts;
}
