import { fitsNormalisedByLength } from "./normalised-length.js";

/**
 * The most of a recall or search message that is read, in UTF-16 units after Unicode NFKC (as
 * the embedders and the lexical index read it): ~10,000 English words, more than an embedding
 * model takes in (Cohere and OpenAI embed 8,192 tokens or fewer).
 */
export const MAX_QUERY_CHARS = 65_536;

/**
 * The head of a recall or search message that ranks: the whole message when it is at most
 * {@link MAX_QUERY_CHARS} long once normalised, else its longest head that is (never half of a
 * surrogate pair). Embedding and matching a message cost time in proportion to its normalised
 * length, on the event loop every request shares: a 1 MB message of U+FDFA (6 million
 * characters once normalised) held it for 2-3 s, 1 MB of plain words ~0.5 s, while a message's
 * words past the first ten thousand do not change what is relevant.
 *
 * @example
 * queryText("when do deploys run?"); // "when do deploys run?"
 * queryText("x ".repeat(100_000)).length; // 65536
 */
export function queryText(message: string): string {
  if (fitsNormalisedByLength(message, MAX_QUERY_CHARS)) return message;
  let head = headOf(message, MAX_QUERY_CHARS);
  for (;;) {
    const normalised = head.normalize("NFKC").length;
    if (normalised <= MAX_QUERY_CHARS) return head;
    // Strictly shorter each time; the ratio lands close at once unless the expansion is uneven.
    head = headOf(head, Math.floor((head.length * MAX_QUERY_CHARS) / normalised));
  }
}

function headOf(text: string, length: number): string {
  if (text.length <= length) return text;
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}
