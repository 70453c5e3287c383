// The subscription page's delivery (docs/product/delivery.md): the licence key with a copy button,
// regenerating it, the bound devices and clearing them, and the latest build with its checksum,
// setup steps and a download button (a fresh signed link on every click). The forms are plain
// posts of the page's action: they work without JavaScript; the destructive ones sit behind a
// disclosure that asks again.
import { Form } from "react-router";
import { formatSize } from "../../i18n/format.ts";
import type { Translate } from "../../i18n/translate.ts";
import { useFormatDate, type FormatDate } from "../lib/dates.ts";
import { CopyField } from "./copy-field.tsx";
import { SubmitButton } from "./forms.tsx";
import { Icon } from "./ui/icons.tsx";
import { Card } from "./ui/primitives.tsx";

export type LicenceData = {
  key: string;
  deviceLimit: number;
  devices: { id: number; clientVersion: string | null; firstSeenAt: Date; lastSeenAt: Date }[];
  resetAvailableAt: Date | null;
};

export type BuildData = { version: string; notes: string; fileName: string; size: number; sha256: string; createdAt: Date };

/** A time in the buyer's zone, named (docs/product/routes.md#dates-and-amounts). */
const time = (formatDate: FormatDate, date: Date) => <time dateTime={date.toISOString()}>{formatDate(date)}</time>;

/** A question behind a disclosure, then the button that does it. */
function Confirm({ summary, hint, intent, variant }: { summary: string; hint: string; intent: string; variant: "danger" | "secondary" }) {
  return (
    <details className="confirm">
      <summary>{summary}</summary>
      <p className="muted small">{hint}</p>
      <Form method="post">
        <SubmitButton intent={intent} variant={variant} block={false}>
          {summary}
        </SubmitButton>
      </Form>
    </details>
  );
}

export function LicenceCard({ licence, game, resetDays, t }: { licence: LicenceData; game: string; resetDays: number; t: Translate }) {
  const formatDate = useFormatDate();
  const { devices } = licence;
  return (
    <Card as="section" className="licence-card" aria-labelledby="licence-title">
      <h2 id="licence-title" className="h3">
        {t("licence.title")}
      </h2>
      <div>
        <h3 className="label">{t("licence.key")}</h3>
        <CopyField id="licence-key" value={licence.key} mono texts={{ label: t("licence.key"), copy: t("licence.copy"), copied: t("licence.copied"), failed: t("licence.copyFailed") }} />
        <p className="muted small">{t("licence.keyHint", { game, limit: licence.deviceLimit })}</p>
        <Confirm summary={t("licence.regenerate")} hint={t("licence.regenerateHint")} intent="regenerate" variant="danger" />
      </div>
      <div>
        <div className="section-head">
          <h3 className="label">{t("licence.devices")}</h3>
          <p className="muted small">{t("licence.devicesUsed", { count: devices.length, limit: licence.deviceLimit })}</p>
        </div>
        {devices.length === 0 ? (
          <p className="muted">{t("licence.devicesNone")}</p>
        ) : (
          <ul className="device-list">
            {devices.map((device, i) => (
              <li key={device.id}>
                <Icon name="gamepad" size={20} />
                <div>
                  <strong>{t("licence.device", { n: i + 1 })}</strong>
                  <dl className="facts">
                    <div>
                      <dt>{t("licence.firstSeen")}</dt>
                      <dd>{time(formatDate, device.firstSeenAt)}</dd>
                    </div>
                    <div>
                      <dt>{t("licence.lastSeen")}</dt>
                      <dd>{time(formatDate, device.lastSeenAt)}</dd>
                    </div>
                    <div>
                      <dt>{t("licence.clientVersion")}</dt>
                      <dd>{device.clientVersion ?? t("licence.versionUnknown")}</dd>
                    </div>
                  </dl>
                </div>
              </li>
            ))}
          </ul>
        )}
        {devices.length > 0 &&
          (licence.resetAvailableAt ? (
            <p className="freeze-block" role="note">
              <Icon name="clock" size={16} />
              <span>{t("licence.clearAfter", { date: formatDate(licence.resetAvailableAt) })}</span>
            </p>
          ) : (
            <Confirm summary={t("licence.clear")} hint={t("licence.clearHint", { days: resetDays })} intent="clear" variant="secondary" />
          ))}
      </div>
    </Card>
  );
}

export function DownloadCard({
  build,
  holdsPass,
  href,
  linkMinutes,
  langTag,
  t,
}: {
  build: BuildData | null;
  holdsPass: boolean;
  href: string;
  linkMinutes: number;
  langTag: string;
  t: Translate;
}) {
  const size = (bytes: number) => formatSize(bytes, langTag);
  const formatDate = useFormatDate();
  return (
    <Card as="section" className="download-card" aria-labelledby="download-title">
      <h2 id="download-title" className="h3">
        {t("download.title")}
      </h2>
      {!build ? (
        <p className="muted">{t("download.none")}</p>
      ) : !holdsPass ? (
        <p className="muted">{t("download.needPass")}</p>
      ) : (
        <>
          <p className="download-version">{t("download.version", { version: build.version })}</p>
          <dl className="facts">
            <div>
              <dt>{t("download.published")}</dt>
              <dd>{time(formatDate, build.createdAt)}</dd>
            </div>
            <div>
              <dt>{t("download.size")}</dt>
              <dd>{size(build.size)}</dd>
            </div>
          </dl>
          <dl className="checksum">
            <dt>{t("download.checksum")}</dt>
            <dd>
              <code>{build.sha256}</code>
            </dd>
          </dl>
          <div>
            <a className="btn btn-primary" href={href} download={build.fileName}>
              <Icon name="download" size={18} />
              {t("download.button", { file: build.fileName })}
            </a>
            <p className="muted small">{t("download.linkNote", { minutes: linkMinutes })}</p>
          </div>
          {build.notes && (
            <div>
              <h3 className="label">{t("download.notes")}</h3>
              <p className="download-notes">{build.notes}</p>
            </div>
          )}
          <div>
            <h3 className="label">{t("download.steps.title")}</h3>
            <ol className="how-list">
              <li>{t("download.steps.1")}</li>
              <li>{t("download.steps.2")}</li>
              <li>{t("download.steps.3")}</li>
              <li>{t("download.steps.4")}</li>
            </ol>
          </div>
        </>
      )}
    </Card>
  );
}
