import { Link } from "react-router";
import { useHref } from "../lib/paths.ts";
import { useT } from "../lib/i18n.tsx";

/** The logo: a game-pad mark and the shop's name, linking to the home page. */
export function Logo() {
  const href = useHref();
  const t = useT();
  return (
    <Link to={href("/")} className="logo" aria-label={t("nav.homeLabel")}>
      <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#1a1d2e" />
        <path d="M8 22V10h3l7 8v-8h3v12h-3l-7-8v8z" fill="url(#logo-gradient)" />
        <defs>
          <linearGradient id="logo-gradient" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#8b6cff" />
            <stop offset="1" stopColor="#22d3ee" />
          </linearGradient>
        </defs>
      </svg>
      <span>NOVA</span>
    </Link>
  );
}
