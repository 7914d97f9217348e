import { lightStem } from "./light-stem.js";
import { STOP_WORDS } from "./stop-words.js";
import { isPlainWord, textWords, wordParts } from "./text-words.js";

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
  for (const raw of textWords(text)) {
    if (isPlainWord(raw)) {
      // Its one part is itself, already lower case: no parts array, no lower-cased copy.
      if (!STOP_WORDS.has(raw)) terms.push(stem(raw));
      continue;
    }
    const parts = wordParts(raw);
    if (parts.length > 1) terms.push(raw.toLowerCase());
    for (const part of parts) {
      const word = part.toLowerCase();
      if (!STOP_WORDS.has(word)) terms.push(stem(word));
    }
  }
  return terms;
}
