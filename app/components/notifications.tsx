// Interface notifications (docs/product/routes.md#failed-calls-in-the-browser): title, content, error flag and a generated unique id;
// removable by id. API failures become notifications by their status.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import type { Translate } from "../../i18n/translate.ts";
import { useT } from "../lib/i18n.tsx";
import { Icon } from "./ui/icons.tsx";

/** `hint`, our second line under the spec's wording, says what to do now. */
export type UiNotification = { id: string; title: string; content: string; hint?: string; error: boolean };

type Store = {
  items: UiNotification[];
  notify(n: Omit<UiNotification, "id">): string;
  remove(id: string): void;
};

const NotificationsContext = createContext<Store | null>(null);

let counter = 0;
function uniqueId() {
  counter += 1;
  return `n-${Date.now().toString(36)}-${counter}`;
}

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<UiNotification[]>([]);
  const remove = useCallback((id: string) => setItems((list) => list.filter((n) => n.id !== id)), []);
  const notify = useCallback((n: Omit<UiNotification, "id">) => {
    const id = uniqueId();
    setItems((list) => [...list, { ...n, id }]);
    return id;
  }, []);
  const store = useMemo(() => ({ items, notify, remove }), [items, notify, remove]);
  return (
    <NotificationsContext.Provider value={store}>
      {children}
      <NotificationList items={items} remove={remove} />
    </NotificationsContext.Provider>
  );
}

export function useNotifications(): Store {
  const store = useContext(NotificationsContext);
  if (!store) throw new Error("NotificationsProvider is missing");
  return store;
}

/** The notification (docs/product/routes.md#failed-calls-in-the-browser) for a failed API call's status, or null where it is only logged. */
export function notificationForStatus(status: number, t: Translate): Omit<UiNotification, "id"> | null {
  if (status === 400 || status === 404 || status === 500) {
    return { title: t(`notify.${status}.title`), content: t(`notify.${status}.content`), hint: t(`notify.${status}.hint`), error: true };
  }
  return null;
}

function NotificationList({ items, remove }: { items: UiNotification[]; remove(id: string): void }) {
  const t = useT();
  return (
    <div className="toasts" role="region" aria-live="polite" aria-label={t("notify.region")}>
      {items.map((n) => (
        <div key={n.id} className={`toast${n.error ? " toast-error" : ""}`} role={n.error ? "alert" : "status"} data-id={n.id}>
          <Icon name={n.error ? "alert" : "check"} />
          <div className="toast-body">
            <strong>{n.title}</strong>
            <p>{n.content}</p>
            {n.hint && <p className="toast-hint">{n.hint}</p>}
          </div>
          <button type="button" className="toast-close" onClick={() => remove(n.id)} aria-label={t("notify.close")}>
            <Icon name="close" size={16} />
          </button>
        </div>
      ))}
    </div>
  );
}
