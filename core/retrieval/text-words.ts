/**
 * The words of a text as the lexical index and the word-vector embedder both read them: NFKC,
 * a possessive `'s` dropped, apostrophes removed (so `don't` is one word), then words of letters
 * and digits joined by single `-`, `_`, `.` or `/` inside them (`user-service`, `max_retries`,
 * `v1.2`, `src/app.ts`), and each word's parts (camelCase, kebab-case, snake_case, digits).
 */
const RAW_TOKEN = /[\p{L}\p{N}]+(?:[-_./][\p{L}\p{N}]+)*/gu;
const APOSTROPHES = /['\u2019\u02bc]/g;
const HAS_APOSTROPHE = /['\u2019\u02bc]/;
/** Possessive `'s`, dropped before the apostrophe goes so `Caroline's` meets `Caroline`. */
const POSSESSIVE = /['\u2019\u02bc]s\b/giu;
/** Boundaries inside a compound: separators, and case changes (`getUser`, `HTTPServer`). */
const PART = /\p{Lu}+(?![\p{Ll}])|\p{Lu}?\p{Ll}+|\p{N}+|\p{L}+/gu;
/** A word whose only part is itself: ASCII lower-case letters, or digits. */
const PLAIN = /^(?:[a-z]+|[0-9]+)$/;

/**
 * The words of a text, in order, as written (case kept).
 *
 * @example
 * textWords("Caroline's getUserName, don't"); // ["Caroline", "getUserName", "dont"]
 */
export function textWords(text: string): string[] {
  let normalised = text.normalize("NFKC");
  // Most texts hold no apostrophe: one test instead of two unicode-aware replaces. `match`
  // gives the words as strings, where `matchAll` made a match array per word.
  if (HAS_APOSTROPHE.test(normalised)) {
    normalised = normalised.replace(POSSESSIVE, "").replace(APOSTROPHES, "");
  }
  return normalised.match(RAW_TOKEN) ?? [];
}

/**
 * The parts of a word from {@link textWords}, case kept.
 *
 * @example
 * wordParts("getUserName"); // ["get", "User", "Name"]
 * wordParts("HTTPServer_v2"); // ["HTTP", "Server", "v", "2"]
 */
export function wordParts(word: string): string[] {
  return word.match(PART) ?? [];
}

/**
 * Whether a word is its own only part, already lower case (ASCII lower-case letters, or
 * digits): the usual word, which needs no {@link wordParts} and no lower-casing.
 *
 * @example
 * isPlainWord("deploy"); // true
 * isPlainWord("Deploy"); // false
 */
export function isPlainWord(word: string): boolean {
  return PLAIN.test(word);
}
