// A value to copy (a referral link, a licence key): in a read-only field, selectable without
// JavaScript; the copy button appears once JavaScript runs (it needs the clipboard), and says
// whether the copy worked, to the eye and to screen readers.
import { useEffect, useRef, useState } from "react";
import { Icon } from "./ui/icons.tsx";

/** `share` and `shareText`: a Share button (the system's share sheet) where the browser has one. */
export type CopyTexts = { label: string; copy: string; copied: string; failed: string; share?: string; shareText?: string };

export function CopyField({ id, value, texts, mono = false }: { id: string; value: string; texts: CopyTexts; mono?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [canCopy, setCanCopy] = useState(false);
  const [canShare, setCanShare] = useState(false);
  useEffect(() => setCanShare(Boolean(texts.share) && typeof navigator !== "undefined" && typeof navigator.share === "function"), [texts.share]);
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  useEffect(() => setCanCopy(typeof navigator !== "undefined" && Boolean(navigator.clipboard)), []);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2500);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      input.current?.select();
      setCopied("no");
    }
  }

  return (
    <div className="copy-field">
      <label htmlFor={id} className="visually-hidden">
        {texts.label}
      </label>
      <input id={id} ref={input} type="text" value={value} readOnly className={mono ? "mono" : undefined} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
      {canCopy && (
        <button type="button" className="btn btn-primary" onClick={copy}>
          <Icon name={copied === "yes" ? "check" : "arrowRight"} size={18} />
          {copied === "yes" ? texts.copied : texts.copy}
        </button>
      )}
      {canShare && (
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => {
            // A dismissed share sheet rejects: nothing to report.
            navigator.share({ text: texts.shareText, url: value }).catch(() => undefined);
          }}
        >
          {texts.share}
        </button>
      )}
      <span className="visually-hidden" role="status">
        {copied === "yes" ? texts.copied : copied === "no" ? texts.failed : ""}
      </span>
      {copied === "no" && <p className="field-hint">{texts.failed}</p>}
    </div>
  );
}
