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
  return termsOf(text, cachedLightStem);
}

/**
 * Most distinct words whose term {@link cachedLightStem} keeps; then it starts over. Words follow
 * Zipf's law: a few thousand cover nearly every word of a corpus; 50,000 short words are ~4 MB.
 */
const STEM_CACHE_WORDS = 50_000;
/**
 * Longest word kept: V8 copies a substring this short, where a longer one may be a slice that
 * keeps its whole text alive (a cached word must not hold a memory's content).
 */
const STEM_CACHE_LENGTH = 12;
const A = "a".charCodeAt(0);
const Z = "z".charCodeAt(0);
/** Lower-case word → its term (`null`: a stop word). */
let stems = new Map<string, string | null>();

/**
 * The term of a lower-case word ({@link lightStem}), `undefined` for a stop word, remembered per
 * word: the same answer without the stop list's lookup and the stemmer's tests and slices for a
 * word seen before, which most words of a document are.
 *
 * @example
 * cachedLightStem("deploys"); // "deploy"
 * cachedLightStem("the"); // undefined
 */
function cachedLightStem(word: string): string | undefined {
  // Stop words and the words the stemmer changes are of a-z only: a word starting otherwise (a
  // number, most often one of a kind) is its own term, and is not cached.
  const first = word.charCodeAt(0);
  if (first < A || first > Z) return word;
  if (word.length > STEM_CACHE_LENGTH) return STOP_WORDS.has(word) ? undefined : lightStem(word);
  let term = stems.get(word);
  if (term === undefined) {
    if (stems.size >= STEM_CACHE_WORDS) stems = new Map();
    term = STOP_WORDS.has(word) ? null : lightStem(word);
    stems.set(word, term);
  }
  return term ?? undefined;
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
  const termOf = (word: string) => (STOP_WORDS.has(word) ? undefined : stem(word));
  return (text) => termsOf(text, termOf);
}

/** `termOf`: the term of a lower-case word, `undefined` for a stop word. */
function termsOf(text: string, termOf: (word: string) => string | undefined): string[] {
  const terms: string[] = [];
  for (const raw of textWords(text)) {
    if (isPlainWord(raw)) {
      // Its one part is itself, already lower case: no parts array, no lower-cased copy.
      const term = termOf(raw);
      if (term !== undefined) terms.push(term);
      continue;
    }
    const parts = wordParts(raw);
    if (parts.length > 1) terms.push(raw.toLowerCase());
    for (const part of parts) {
      const term = termOf(part.toLowerCase());
      if (term !== undefined) terms.push(term);
    }
  }
  return terms;
}
