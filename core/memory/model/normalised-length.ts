/** NFKC turns one UTF-16 unit into at most 18 (U+FDFA, an Arabic ligature of four words). */
const MAX_NFKC_GROWTH = 18;

/**
 * Whether `text` is sure to be at most `max` UTF-16 units once Unicode NFKC-normalised, told
 * from its length alone (no normalisation): false means it may still be, and only normalising
 * tells.
 *
 * @example
 * fitsNormalisedByLength("deploys", 126); // true: 7 × 18 = 126
 * fitsNormalisedByLength("deploys", 125); // false: normalise to tell
 */
export function fitsNormalisedByLength(text: string, max: number): boolean {
  return text.length * MAX_NFKC_GROWTH <= max;
}
