import { lightStem } from "./light-stem.js";
import { STOP_WORDS } from "./stop-words.js";

/**
 * A word as written: letters and digits, joined by single `-`, `_`, `.` or `/` inside it
 * (`user-service`, `max_retries`, `v1.2`, `src/app.ts`). Apostrophes are removed before
 * matching, so `don't` is one word.
 */
const RAW_TOKEN = /[\p{L}\p{N}]+(?:[-_./][\p{L}\p{N}]+)*/gu;
const APOSTROPHES = /['\u2019\u02bc]/g;
const HAS_APOSTROPHE = /['\u2019\u02bc]/;
/** Possessive `'s`, dropped before the apostrophe goes so `Caroline's` meets `Caroline`. */
const POSSESSIVE = /['\u2019\u02bc]s\b/giu;
/** Boundaries inside a compound: separators, and case changes (`getUser`, `HTTPServer`). */
const PART = /\p{Lu}+(?![\p{Ll}])|\p{Lu}?\p{Ll}+|\p{N}+|\p{L}+/gu;
/** A word whose only `PART` is itself: ASCII lower-case letters, or digits. */
const ONE_PART = /^(?:[a-z]+|[0-9]+)$/;

/**
 * The BM25 terms of a text, in order: lower-cased NFKC words minus stop words, each through
 * {@link lightStem}. A compound (camelCase, kebab-case, snake_case, dotted or slashed) yields its
 * parts and also itself whole, so `getUserName` matches both the identifier and the words
 * `user name`. Numbers are kept as terms (`2022`, `v1.2` → `v`, `1`, `2`, `v1.2`).
 *
 * @example
 * lexicalTerms("The deploys run on Fridays"); // ["deploy", "run", "friday"]
 * lexicalTerms("call getUserName"); // ["call", "getusername", "get", "user", "nam"]
 * lexicalTerms("max_retries is 3"); // ["max_retries", "max", "retry", "3"]
 */
export function lexicalTerms(text: string): string[] {
  return termsOf(text, lightStem);
}

/**
 * {@link lexicalTerms} with another stemmer (`(word) => word` for none): what the ranking
 * benchmarks compare the light stemmer against.
 *
 * @example
 * const unstemmed = lexicalTermsWith((word) => word);
 * unstemmed("The deploys run on Fridays"); // ["deploys", "run", "fridays"]
 */
export function lexicalTermsWith(stem: (word: string) => string): (text: string) => string[] {
  return (text) => termsOf(text, stem);
}

function termsOf(text: string, stem: (word: string) => string): string[] {
  const terms: string[] = [];
  let normalised = text.normalize("NFKC");
  // Allocation, not logic (issue 21's write pass): the two replaces run only when the text holds
  // an apostrophe, and `match` gives the words as strings where `matchAll` made a match array
  // per word (the largest allocation of a remembered memory, ~3 KB each).
  if (HAS_APOSTROPHE.test(normalised)) {
    normalised = normalised.replace(POSSESSIVE, "").replace(APOSTROPHES, "");
  }
  for (const raw of normalised.match(RAW_TOKEN) ?? []) {
    if (ONE_PART.test(raw)) {
      // Its one part is itself, already lower case: no parts array, no lower-cased copy.
      if (!STOP_WORDS.has(raw)) terms.push(stem(raw));
      continue;
    }
    const parts = raw.match(PART) ?? [];
    if (parts.length > 1) terms.push(raw.toLowerCase());
    for (const part of parts) {
      const word = part.toLowerCase();
      if (!STOP_WORDS.has(word)) terms.push(stem(word));
    }
  }
  return terms;
}
