// A game's status (docs/product/data.md#game-content) as a badge: working, updating, detected or
// under maintenance, in the page's language.
import type { GameStatus } from "../../core/catalog/index.ts";
import { useT } from "../lib/i18n.tsx";

const TONE: Record<GameStatus, string> = { working: "success", updating: "warning", detected: "danger", maintenance: "muted" };

export function GameStatusBadge({ status }: { status: GameStatus }) {
  const t = useT();
  return (
    <span className={`badge badge-${TONE[status]} status-badge`}>
      <span className="status-dot" aria-hidden="true" />
      {t(`game.status.${status}`)}
    </span>
  );
}
