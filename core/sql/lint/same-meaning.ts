import type { Token } from "../token.js";
import { isSignificant } from "./lint-context.js";

/** A comment with the trailing spaces of each of its lines removed (they carry nothing). */
function commentText(token: Token): string {
  return token.text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trimEnd())
    .join("\n");
}

/** Words that end an operand, so a name after them (with or without AS) is an alias. */
const OPERAND_END_WORDS: ReadonlySet<string> = new Set(["END", "NULL", "TRUE", "FALSE"]);
/** Functions every dialect reads as COALESCE when given two arguments. */
const COALESCE_SPELLINGS: ReadonlySet<string> = new Set(["IFNULL", "NVL"]);
const JOIN_SIDES: ReadonlySet<string> = new Set(["LEFT", "RIGHT", "FULL"]);

/** One code token as the comparison sees it: words by their upper case, all else exactly. */
interface Canon {
  readonly word: boolean;
  readonly kind: string;
  readonly text: string;
}

function canon(t: Token): Canon {
  const word = t.kind === "keyword" || t.kind === "identifier";
  return { word, kind: word ? "word" : t.kind, text: word ? t.upper : t.text };
}

function isName(c: Canon | undefined): boolean {
  return c !== undefined && (c.word || c.kind === "quoted_identifier");
}

function endsOperand(c: Canon | undefined): boolean {
  if (c === undefined) return false;
  if (c.word) return true;
  return (
    c.kind === "quoted_identifier" ||
    c.kind === "number" ||
    c.kind === "string" ||
    c.kind === "parameter" ||
    c.text === ")" ||
    OPERAND_END_WORDS.has(c.text)
  );
}

/**
 * The code tokens of a text in a canonical spelling, so that the rewrites the fixes make compare
 * equal: the optional noise words `INNER` (before JOIN), `OUTER` (after LEFT/RIGHT/FULL), `ASC`
 * and `AS` before an alias are dropped; `!=` reads `<>`; `COUNT(1)` and `COUNT(0)` read
 * `COUNT(*)`; `IFNULL(` and `NVL(` read `COALESCE(`; `ELSE NULL` before `END` is dropped; an
 * alias equal to the column it names is dropped; a comma right before FROM and an empty
 * statement's `;` are dropped. Each of these is a rewrite every dialect reads the same way.
 */
function canonicalCode(tokens: readonly Token[]): Canon[] {
  const code = tokens.filter(isSignificant).map(canon);
  const out: Canon[] = [];
  for (let i = 0; i < code.length; i++) {
    const c = code[i] as Canon;
    const next = code[i + 1];
    const prev = out[out.length - 1];
    if (c.word) {
      if (c.text === "INNER" && next?.text === "JOIN") continue;
      if (c.text === "OUTER" && next?.text === "JOIN" && JOIN_SIDES.has(prev?.text ?? "")) continue;
      if (c.text === "ASC") continue;
      if (c.text === "AS" && endsOperand(prev) && isName(next) && code[i + 2]?.text !== "(")
        continue;
      if (c.text === "ELSE" && next?.text === "NULL" && code[i + 2]?.text === "END") {
        i++;
        continue;
      }
      if (COALESCE_SPELLINGS.has(c.text) && next?.text === "(") {
        out.push({ word: true, kind: "word", text: "COALESCE" });
        continue;
      }
      // A self-alias: `a AS a` (AS already dropped) or `t.a a`, before `,`, FROM, `)` or the end.
      const after = next?.text;
      if (
        prev?.word === true &&
        prev.text === c.text &&
        c.text !== "END" &&
        out[out.length - 2]?.text !== "AS" &&
        (after === undefined || after === "," || after === "FROM" || after === ")" || after === ";")
      )
        continue;
    } else if (c.kind === "quoted_identifier") {
      if (
        prev?.kind === "quoted_identifier" &&
        prev.text === c.text &&
        (next === undefined || next.text === "," || next.text === "FROM" || next.text === ")")
      )
        continue;
    } else if (c.text === "!=") {
      out.push({ ...c, text: "<>" });
      continue;
    } else if (c.text === "," && next?.text === "FROM") {
      continue;
    } else if (c.text === ";" && (prev === undefined || prev.text === ";")) {
      continue;
    } else if (
      (c.text === "1" || c.text === "0") &&
      c.kind === "number" &&
      prev?.text === "(" &&
      out[out.length - 2]?.text === "COUNT" &&
      next?.text === ")"
    ) {
      out.push({ word: false, kind: "operator", text: "*" });
      continue;
    }
    out.push(c);
  }
  return out;
}

/**
 * The fixes' guarantee: `after` means what `before` means when both have the same code tokens in
 * the same order (keywords and unquoted names compared case-insensitively, as SQL reads them;
 * strings, quoted identifiers, numbers, operators and punctuation exactly) and the same comments
 * in the same order (ignoring trailing spaces inside them). Layout, keyword case, where a comma
 * sits between two tokens, and the rewrites listed under `canonicalCode` (optional `INNER`,
 * `OUTER`, `ASC` and alias `AS`, `!=` for `<>`, `COUNT(1)` for `COUNT(*)`, …) may differ.
 *
 * @example
 * sameMeaning(tokenize("select a ,b"), tokenize("SELECT a,\n  b")); // true
 * sameMeaning(tokenize("SELECT a b FROM t JOIN u"), tokenize("SELECT a AS b FROM t INNER JOIN u")); // true
 * sameMeaning(tokenize("SELECT 'a  b'"), tokenize("SELECT 'a b'")); // false
 */
export function sameMeaning(before: readonly Token[], after: readonly Token[]): boolean {
  const codeA = canonicalCode(before);
  const codeB = canonicalCode(after);
  if (codeA.length !== codeB.length) return false;
  for (let i = 0; i < codeA.length; i++) {
    const a = codeA[i] as Canon;
    const b = codeB[i] as Canon;
    if (a.kind !== b.kind || a.text !== b.text) return false;
  }
  const comments = (tokens: readonly Token[]) =>
    tokens.filter((t) => t.kind === "line_comment" || t.kind === "block_comment").map(commentText);
  const commentsA = comments(before);
  const commentsB = comments(after);
  return commentsA.length === commentsB.length && commentsA.every((c, i) => c === commentsB[i]);
}
