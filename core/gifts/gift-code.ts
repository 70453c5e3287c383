// Gift codes (docs/product/money.md#gifts): the one definition of what a code is — made here, and
// checked against the same alphabet and length when it is redeemed.

/** Letters and digits without look-alikes (no 0/O, 1/I). */
export const GIFT_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const GIFT_CODE_LENGTH = 12;

/** A code as made and stored: exactly GIFT_CODE_LENGTH characters of the alphabet. */
export const GIFT_CODE = new RegExp(`^[${GIFT_CODE_ALPHABET}]{${GIFT_CODE_LENGTH}}$`);

/**
 * A code as a person typed it, in the stored form: spaces and dashes (a code may be written in
 * groups) and case do not matter. Undefined when what is left cannot be a code.
 */
export function normalizeGiftCode(typed: string): string | undefined {
  const code = typed.trim().toUpperCase().replace(/[\s-]/g, "");
  return GIFT_CODE.test(code) ? code : undefined;
}
