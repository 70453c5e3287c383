// The header's notification bell (docs/product/accounts.md#notifications): the unread count, and a
// panel with the latest notifications, each marked read by a button, or all at once. It needs no
// script: a <details> opens the panel, and the buttons post a form to /profile, which marks them
// and comes back to this page.
import { useT, useLocale } from "../lib/i18n.tsx";
import { useFormatDate } from "../lib/dates.ts";
import { useRootData } from "../root.tsx";
import { localePath } from "../../i18n/locales.ts";
import { Icon } from "./ui/icons.tsx";

export function Inbox() {
  const t = useT();
  const locale = useLocale();
  const formatDate = useFormatDate();
  const root = useRootData();
  const inbox = root?.inbox;
  if (!root || !inbox) return null;
  const action = localePath(locale, "/profile");
  const back = localePath(locale, root.path) + root.search;
  const hidden = (
    <>
      <input type="hidden" name="intent" value="read" />
      <input type="hidden" name="back" value={back} />
    </>
  );
  return (
    <details className="inbox">
      <summary aria-label={t("inbox.label", { count: inbox.unread })} data-unread={inbox.unread}>
        <Icon name="bell" size={18} />
        {inbox.unread > 0 && (
          <span className="inbox-count" aria-hidden="true">
            {inbox.unread > 99 ? "99+" : inbox.unread}
          </span>
        )}
      </summary>
      <div className="inbox-panel">
        <div className="inbox-head">
          <strong>{t("inbox.title")}</strong>
          {inbox.unread > 0 && (
            <form method="post" action={action}>
              {hidden}
              <input type="hidden" name="all" value="1" />
              <button type="submit" className="link-button">
                {t("inbox.markAll")}
              </button>
            </form>
          )}
        </div>
        {inbox.latest.length === 0 ? (
          <p className="muted small inbox-empty">{t("inbox.empty")}</p>
        ) : (
          <ul className="inbox-list">
            {inbox.latest.map((n) => (
              <li key={n.id} className={n.read ? undefined : "unread"} data-notification={n.id}>
                <p className="inbox-title">{n.title}</p>
                <p className="small">{n.content}</p>
                <p className="muted small">
                  <time dateTime={n.createdAt.toISOString()}>{formatDate(n.createdAt)}</time>
                </p>
                {!n.read && (
                  <form method="post" action={action}>
                    {hidden}
                    <input type="hidden" name="id" value={n.id} />
                    <button type="submit" className="link-button small" aria-label={t("inbox.markOneLabel", { title: n.title })}>
                      {t("inbox.markOne")}
                    </button>
                  </form>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </details>
  );
}
