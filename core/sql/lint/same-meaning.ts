import type { Token } from "../token.js";
import { isSignificant } from "./lint-context.js";

/** A comment with the trailing spaces of each of its lines removed (they carry nothing). */
function commentText(token: Token): string {
  return token.text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trimEnd())
    .join("\n");
}

/**
 * The formatter's guarantee for fixes: `after` means what `before` means when both have the same
 * code tokens in the same order (keywords and unquoted names compared case-insensitively, as SQL
 * reads them; strings, quoted identifiers, numbers, operators and punctuation exactly) and the
 * same comments in the same order (ignoring trailing spaces inside them). Only layout, keyword
 * case and where a comma sits between two tokens may differ.
 *
 * @example
 * sameMeaning(tokenize("select a ,b"), tokenize("SELECT a,\n  b")); // true
 * sameMeaning(tokenize("SELECT 'a  b'"), tokenize("SELECT 'a b'")); // false
 */
export function sameMeaning(before: readonly Token[], after: readonly Token[]): boolean {
  const codeA = before.filter(isSignificant);
  const codeB = after.filter(isSignificant);
  if (codeA.length !== codeB.length) return false;
  for (let i = 0; i < codeA.length; i++) {
    const a = codeA[i] as Token;
    const b = codeB[i] as Token;
    if (a.kind !== b.kind) return false;
    const wordLike = a.kind === "keyword" || a.kind === "identifier";
    if (wordLike ? a.upper !== b.upper : a.text !== b.text) return false;
  }
  const comments = (tokens: readonly Token[]) =>
    tokens.filter((t) => t.kind === "line_comment" || t.kind === "block_comment").map(commentText);
  const commentsA = comments(before);
  const commentsB = comments(after);
  return commentsA.length === commentsB.length && commentsA.every((c, i) => c === commentsB[i]);
}
