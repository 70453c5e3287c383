// Hydrates once the page's message catalogue is here; the document preloads it, so this is
// usually a cache hit.
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { isLocale, DEFAULT_LOCALE } from "../i18n/locales.ts";
import type { CompiledCatalog } from "../i18n/translate.ts";
import { I18nProvider } from "./lib/i18n.tsx";
import { watchChallenges } from "./lib/antibot.ts";

// A 403 anti-bot challenge on any call of the page reloads it, at most once in 10 s (spec 8).
watchChallenges(window);

async function start() {
  const root = document.documentElement;
  const locale = isLocale(root.dataset.locale) ? root.dataset.locale : DEFAULT_LOCALE;
  const link = document.getElementById("i18n-messages") as HTMLLinkElement | null;
  const messages: CompiledCatalog = link ? await fetch(link.href).then((r) => r.json()) : {};
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <I18nProvider locale={locale} messages={messages}>
          <HydratedRouter />
        </I18nProvider>
      </StrictMode>,
    );
  });
}

void start();
