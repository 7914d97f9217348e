/**
 * Words a query explicitly excludes: an unambiguous exclusion cue ("excluding", "other than",
 * "apart from", "aside from", "not including", "without mentioning/discussing/…", "do not
 * mention/discuss/…") and the rest of its clause, up to the next `.`, `?`, `!`, `;`, `:` or
 * parenthesis. Bare "without", "except" and "not" are left alone: "deploy without downtime" or
 * "every day except Friday" name what the answer is about. Linear time: one pass, the clause is
 * a negated character class.
 */
const EXCLUDED_SPAN =
  /\b(?:excluding|other\s+than|apart\s+from|aside\s+from|not\s+including|without\s+(?:mentioning|discussing|touching\s+on|including|referring\s+to|covering)|(?:do\s+not|don['\u2019]t|never)\s+(?:mention|discuss|include|cover|talk\s+about|bring\s+up))\b[^.?!;:()\n]*/giu;

/**
 * The query text BM25 should match: the text without the spans it explicitly excludes (replaced
 * by a space). A word the user asked to leave out is no evidence that a document answers; a
 * document that dwells on it is more likely the answer the user did not want. Measured on the
 * NegConstraint BEIR set (queries such as "Explore Jane Austen's novels, without discussing
 * Pride and Prejudice"): BM25 R@5 0.914 → 0.939 (docs/performance.md, "Recall quality").
 *
 * @example
 * withoutExcludedSpans("Introduce Allen Ginsberg's works, but do not mention 'Howl'.");
 * // "Introduce Allen Ginsberg's works, but  ."
 * withoutExcludedSpans("how do I deploy without downtime?"); // unchanged
 */
export function withoutExcludedSpans(text: string): string {
  return text.replace(EXCLUDED_SPAN, " ");
}
