// Typography of headings and buttons (docs/product/glossary.md#headings-and-buttons): in Russian a
// short preposition or conjunction never ends a line ("на" + no-break space + the next word), and a
// dash never starts one. Checked in every catalogue by i18n/check.ts; the mail templates apply it to
// the heading they make of a subject, since a subject itself is written with plain spaces.
import type { Locale } from "./locales.ts";

const NBSP = "\u00a0";

/**
 * Keys whose messages are headings or buttons: titles, headings, eyebrows, calls to action, submit
 * buttons, FAQ questions. Mail subjects are not among them: a subject is one line in a mail list.
 */
export const HEADING_KEY = /(^|\.)(title|heading|eyebrow|cta|submit|button|q)$|Button$|^game\.cta\.|^home\.hero\.secondary$/;

/** The Russian words that keep to the next one: prepositions and conjunctions of up to three letters, and "№". */
const RU_SHORT = ["а", "в", "во", "и", "к", "ко", "о", "об", "обо", "с", "со", "у", "до", "за", "из", "на", "не", "ни", "но", "от", "по", "для", "без", "при", "под", "над", "про", "или", "№"];
const RU_SHORT_THEN_SPACE = new RegExp(`(^|[\\s«(])(${RU_SHORT.join("|")}) (?=\\S)`, "giu");

/** The text with the no-break spaces its language wants in a heading; unchanged outside Russian. */
export function bindShortWords(text: string, locale: Locale): string {
  if (locale !== "ru") return text;
  // Twice: in "и в игре" the first pass binds "и", the second "в".
  let bound = text.replace(RU_SHORT_THEN_SPACE, `$1$2${NBSP}`).replace(RU_SHORT_THEN_SPACE, `$1$2${NBSP}`);
  bound = bound.replace(/ (?=[—–])/g, NBSP);
  return bound;
}
