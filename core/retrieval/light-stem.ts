/** Words this short are left alone: stripping a suffix from them mostly makes new collisions. */
const MIN_STEM_INPUT = 4;
/** What must stay of a word after a suffix is cut. */
const MIN_STEM = 3;
const VOWEL = /[aeiouy]/;

/**
 * A light English stemmer for BM25: it folds inflections (plural `-s`/`-es`/`-ies`, `-ed`,
 * `-ing`, a final `-e`) so `deploys`, `deployed` and `deploying` meet, and leaves derivations
 * (`deployment`, `quickly`) alone. Lighter than Porter on purpose: identifiers and names survive
 * mostly intact, and the rules are few enough to read. Both documents and queries pass through
 * it, so a stem only has to be consistent, not a real word.
 *
 * Rules, in order: `ies` → `y`; `sses` → `ss`; `(ch|sh|x|z)es` → drop `es`; a final `s` not
 * after `s`, `u` or `i` → drop; `ing`/`ed` after a stem with a vowel → drop, and a doubled final
 * consonant (other than `l`, `s`, `z`) is undoubled; then a final `e` is dropped.
 *
 * @example
 * lightStem("deploys"); // "deploy"
 * lightStem("making"); // "mak"  (as is lightStem("make"))
 * lightStem("running"); // "run"
 * lightStem("queries"); // "query"
 * lightStem("status"); // "status"
 */
export function lightStem(word: string): string {
  if (word.length < MIN_STEM_INPUT || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > MIN_STEM + 1) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (/(?:ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/[sui]s$/.test(w)) w = w.slice(0, -1);
  w = stripVerbEnding(w);
  if (w.endsWith("e") && w.length > MIN_STEM) w = w.slice(0, -1);
  return w;
}

function stripVerbEnding(w: string): string {
  for (const suffix of ["ing", "ed"]) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    if (stem.length < MIN_STEM || !VOWEL.test(stem)) return w;
    const last = stem.charAt(stem.length - 1);
    if (last === stem.charAt(stem.length - 2) && /[^aeioulsz]/.test(last)) {
      return stem.slice(0, -1);
    }
    return stem;
  }
  return w;
}
