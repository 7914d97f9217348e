/**
 * The token estimate shared by every budget in agent-services. It is deliberately provider-free:
 * a real tokenizer would tie the core to one model family, and budgets only need to be safely
 * pessimistic, so the estimate takes the larger of a word-based and a byte-based guess and adds
 * a 10 % margin.
 */

/** Word and UTF-8 byte counts of a text: the two inputs of the token estimate. */
export interface TextMeasure {
  /** Maximal runs of non-whitespace characters. */
  readonly words: number;
  /** Length of the text encoded as UTF-8. */
  readonly bytes: number;
}

/**
 * Length of `text` in UTF-8 bytes, computed without allocating an encoded copy. A lone surrogate
 * counts as 3 bytes, as `TextEncoder` replaces it with U+FFFD.
 *
 * @example
 * utf8ByteLength("héllo"); // 6
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Counts the words and UTF-8 bytes of `text`. Measures of texts that end in whitespace add up,
 * which is what lets budget packing keep running totals instead of re-measuring the context.
 *
 * @example
 * measureText("two words\n"); // { words: 2, bytes: 10 }
 */
export function measureText(text: string): TextMeasure {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isWhitespace(text.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return { words, bytes: utf8ByteLength(text) };
}

/** The characters of the regex class `\s`, tested by code so a 1 MB text costs no regex calls. */
function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * The token estimate of a measured text: `floor(max(words × 1.25, bytes / 3.5) × 1.1)`.
 *
 * @example
 * tokensForMeasure({ words: 4, bytes: 26 }); // 8
 */
export function tokensForMeasure(measure: TextMeasure): number {
  return Math.floor(Math.max(measure.words * 1.25, measure.bytes / 3.5) * 1.1);
}

/**
 * Estimated number of LLM tokens in `text`: `floor(max(words × 1.25, utf8_bytes / 3.5) × 1.1)`,
 * 0 for the empty string.
 *
 * @example
 * estimateTokens("--- Relevant Memories ---\n"); // 8
 */
export function estimateTokens(text: string): number {
  return tokensForMeasure(measureText(text));
}
