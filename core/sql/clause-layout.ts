import type { Token } from "./token.js";
import { bondsToPrevious, ON_NEW_LINE, TOUCHING } from "./token-bonds.js";

/*
 * The formatter's layout: two linear passes over the tokens, no grammar. The first pass finds,
 * for every `(`, whether it opens a block (a subquery: its first word is SELECT or WITH) and, for
 * every clause, whether its body must be spread over lines (it holds a block, or it is long); the
 * second pass writes the text. Only whitespace between tokens changes (and keyword case when
 * asked), so meaning cannot change; `format.ts` still checks that the tokens came through.
 *
 * Long because: `layOutClauses` is one function of two passes that share the items, their lookahead
 * indexes and closures, and the block and spread decisions of the first pass.
 */

/** Layout settings: spaces per level and keyword case. */
export interface ClauseLayoutOptions {
  readonly indentSize: number;
  readonly uppercaseKeywords: boolean;
}

/** Clause bodies and parenthesised lists longer than this are spread one item per line. */
export const MAX_INLINE_WIDTH = 80;

/**
 * Indentation stops growing at this column, so deep nesting cannot make the output much larger
 * than the input (its size stays linear in the input's).
 */
export const MAX_INDENT_COLUMN = 64;

/** Clauses whose body may be spread over lines (keyword alone, body one level deeper). */
const LIST_CLAUSES = new Set([
  "SELECT", "FROM", "WHERE", "GROUP", "ORDER", "HAVING", "SET", "VALUES", "WITH", "RETURNING",
  "QUALIFY", "WINDOW",
]); // prettier-ignore

/** Words that start a clause line inside a statement or subquery. */
const CLAUSE_WORDS = new Set([
  "SELECT", "FROM", "WHERE", "HAVING", "LIMIT", "OFFSET", "QUALIFY", "WINDOW", "VALUES", "SET",
  "RETURNING",
]); // prettier-ignore

const SET_OPERATORS = new Set(["UNION", "INTERSECT", "EXCEPT", "MINUS"]);
const JOIN_PREFIX = new Set(["LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL", "OUTER"]);

/** Keywords always followed by a space before `(` (they are no function names). */
const SPACED_BEFORE_PAREN = new Set([
  "IN", "VALUES", "AS", "ON", "USING", "AND", "OR", "NOT", "WHEN", "THEN", "ELSE", "OVER", "FROM",
  "JOIN", "WHERE", "SELECT", "BY", "INTO", "TABLE", "UNION", "INTERSECT", "EXCEPT", "MINUS",
  "HAVING", "RETURNING", "SET", "WITH", "IS", "LIKE", "ILIKE", "CASE", "DISTINCT", "ALL", "LIMIT",
  "RECURSIVE", "BETWEEN", "VIEW", "INDEX", "EXISTS", "ANY", "SOME", "FILTER", "WITHIN", "PARTITION",
  "KEY", "REFERENCES", "CHECK", "UNIQUE", "DEFAULT", "CONSTRAINT", "INCLUDE",
]); // prettier-ignore

/** Operators written with a space on each side (others keep the spacing they were given). */
const SPACED_OPERATORS = new Set([
  "=", "<>", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "%", "||", "->", "->>", "#>", "#>>",
  "@>", "<@", "&&", "<=>", "~", "!~", "~*", "!~*", "^", "&", "|", "<<", ">>", "=>", ":=", "==",
  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<->", "!<", "!>",
]); // prettier-ignore

/** Words after which `-`/`+` is a value's sign, not subtraction, are keywords that end nothing. */
const OPERAND_KEYWORDS = new Set([
  "NULL", "TRUE", "FALSE", "END", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP",
  "CURRENT_USER", "SESSION_USER", "SYSTEM_USER", "ROWNUM",
]); // prettier-ignore

function isLayout(t: Token): boolean {
  return t.kind === "whitespace" || t.kind === "newline";
}

function isComment(t: Token): boolean {
  return t.kind === "line_comment" || t.kind === "block_comment";
}

function isWord(t: Token | undefined): t is Token {
  return t !== undefined && (t.kind === "keyword" || t.kind === "identifier");
}

/** A token to lay out, with what surrounded it in the source. */
interface Item {
  readonly token: Token;
  /** Whitespace, a line break or a comment separated it from the previous item. */
  readonly gapBefore: boolean;
  /** A line break separated it from the previous item (comments keep their own line). */
  readonly lineBefore: boolean;
  /** It must keep touching the previous item (`bondsToPrevious`: `00f`, `<%`, `orders@remote`). */
  readonly glued: boolean;
  /** A string continuing the string before it, which needs a line break between them. */
  readonly continuesString: boolean;
}

/** Frame kinds: the statement itself, a subquery in parentheses, other parentheses. */
const STATEMENT = 0;
const BLOCK = 1;
const INLINE = 2;

/**
 * Lays out `tokens` (balanced parentheses, at most a bounded depth: `format.ts` checks) as text:
 * clauses on their own lines with short bodies beside them, subqueries indented, statements
 * separated by a blank line, comments kept where they were (own line or end of line). `bonds`
 * (`bondsToPrevious(tokens)` unless the caller has them) keeps tokens touching or on a new line.
 *
 * @example
 * layOutClauses(tokenize("select id,name from users where active=true"), { indentSize: 2, uppercaseKeywords: true });
 * // "SELECT id, name\nFROM users\nWHERE active = true"
 */
export function layOutClauses(
  tokens: readonly Token[],
  options: ClauseLayoutOptions,
  bonds: Uint8Array = bondsToPrevious(tokens),
): string {
  const items: Item[] = [];
  let gap = false;
  let line = false;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    if (isLayout(t)) {
      gap = true;
      if (t.kind === "newline") line = true;
      continue;
    }
    const gapBefore = gap || items.length === 0;
    items.push({
      token: t,
      gapBefore,
      lineBefore: line,
      glued: bonds[k] === TOUCHING,
      continuesString: bonds[k] === ON_NEW_LINE,
    });
    gap = false;
    line = false;
  }
  const n = items.length;
  // Index of the next / previous code item (not a comment) of each item, for lookahead.
  const nextCode = new Int32Array(n + 1).fill(-1);
  for (let i = n - 1, next = -1; i >= 0; i--) {
    nextCode[i] = next;
    if (!isComment((items[i] as Item).token)) next = i;
  }
  const tokenAt = (i: number): Token | undefined => (i < 0 ? undefined : items[i]?.token);
  const nextToken = (i: number): Token | undefined => tokenAt(nextCode[i] ?? -1);

  /** Number of words of the clause starting at item `i` (0 if none), given the previous code token. */
  const clauseWords = (i: number, prev: Token | undefined, firstInFrame: boolean): number => {
    const t = (items[i] as Item).token;
    if (t.kind !== "keyword" && t.kind !== "identifier") return 0;
    const word = t.upper;
    if (firstInFrame)
      return (word === "GROUP" || word === "ORDER") && nextToken(i)?.upper === "BY" ? 2 : 1;
    if (CLAUSE_WORDS.has(word)) {
      if (word === "FROM" && (prev?.upper === "DELETE" || prev?.upper === "DISTINCT")) return 0;
      if (word === "SET" && (prev?.upper === "CHARACTER" || prev?.upper === "CHAR")) return 0;
      return 1;
    }
    if (word === "GROUP" || word === "ORDER") return nextToken(i)?.upper === "BY" ? 2 : 0;
    if (SET_OPERATORS.has(word)) return prev?.text === "*" ? 0 : 1;
    if (word === "JOIN" || word === "STRAIGHT_JOIN") return 1;
    if (JOIN_PREFIX.has(word)) {
      // LEFT JOIN, LEFT OUTER JOIN, CROSS APPLY; not LEFT(name, 3).
      let j = nextCode[i] ?? -1;
      for (let k = 0; k < 2 && j >= 0; k++) {
        const w = tokenAt(j);
        if (w?.upper === "JOIN" || w?.upper === "APPLY") return k + 2;
        if (!isWord(w) || !JOIN_PREFIX.has(w.upper)) break;
        j = nextCode[j] ?? -1;
      }
    }
    return 0;
  };

  // Pass 1: which parentheses open blocks, which clause bodies and lists are spread out.
  const blockOpen = new Uint8Array(n);
  const spread = new Uint8Array(n);
  {
    interface Scan {
      readonly kind: number;
      readonly open: number;
      clause: number;
      clauseLength: number;
      length: number;
      commas: boolean;
      first: boolean;
    }
    const frame = (kind: number, open: number): Scan => ({
      kind,
      open,
      clause: -1,
      clauseLength: 0,
      length: 0,
      commas: false,
      first: true,
    });
    const stack: Scan[] = [frame(STATEMENT, -1)];
    let prev: Token | undefined;
    const closeClause = (f: Scan) => {
      if (f.clause >= 0 && f.clauseLength > MAX_INLINE_WIDTH) spread[f.clause] = 1;
    };
    for (let i = 0; i < n; i++) {
      const t = (items[i] as Item).token;
      const top = stack[stack.length - 1] as Scan;
      if (isComment(t)) continue;
      if (top.kind !== INLINE) {
        const words = clauseWords(i, prev, top.first);
        if (words > 0) {
          closeClause(top);
          top.clause = LIST_CLAUSES.has(t.upper) ? i : -1;
          top.clauseLength = 0;
        }
        top.first = false;
      }
      // Width as laid out on one line: a space before each token except around `.`, `(` and
      // before `,` `)` `;` (from the tokens alone, so a second run decides the same).
      const tight =
        (t.kind === "punctuation" && t.text !== "[") ||
        (prev !== undefined &&
          prev.kind === "punctuation" &&
          (prev.text === "." || prev.text === "("));
      const width = t.text.length + (tight ? 0 : 1);
      top.length += width;
      top.clauseLength += width;
      if (t.kind === "punctuation") {
        if (t.text === "(") {
          const block = nextToken(i)?.upper === "SELECT" || nextToken(i)?.upper === "WITH";
          if (block) {
            blockOpen[i] = 1;
            // The clause holding a subquery is spread out, whatever its length.
            for (let s = stack.length - 1; s >= 0; s--) {
              const f = stack[s] as Scan;
              if (f.kind !== INLINE) {
                if (f.clause >= 0) spread[f.clause] = 1;
                break;
              }
            }
          }
          stack.push(frame(block ? BLOCK : INLINE, i));
        } else if (t.text === ")" && stack.length > 1) {
          const done = stack.pop() as Scan;
          if (done.kind === INLINE) {
            if (done.commas && done.length > MAX_INLINE_WIDTH) spread[done.open] = 1;
          } else closeClause(done);
          const parent = stack[stack.length - 1] as Scan;
          parent.length += done.length;
          parent.clauseLength += done.length;
        } else if (t.text === "," && top.kind === INLINE) {
          top.commas = true;
        } else if (t.text === ";" && stack.length === 1) {
          closeClause(top);
          top.clause = -1;
          top.first = true;
        }
      }
      prev = t;
    }
    for (const f of stack) closeClause(f);
  }

  // Pass 2: write.
  const size = options.indentSize;
  const pad = (level: number) => " ".repeat(Math.min(level, MAX_INDENT_COLUMN));
  interface Frame {
    readonly kind: number;
    /** Column of the frame's clause lines. */
    readonly indent: number;
    /** Column of the lines of a spread clause body or list. */
    bodyIndent: number;
    /** The current clause's body (or this list) is spread: break after commas, before AND/OR. */
    spread: boolean;
    first: boolean;
    between: boolean;
  }
  const stack: Frame[] = [
    { kind: STATEMENT, indent: 0, bodyIndent: 0, spread: false, first: true, between: false },
  ];
  let out = "";
  let lineIndent = 0;
  /** What goes before the next item: nothing decided, a line break, or a blank line. */
  let pending: "" | "line" | "blank" = "";
  let pendingIndent = 0;
  let prev: Token | undefined;
  let prevCode: Token | undefined;
  let prevUnary = false;
  // The next item starts a line even with no indentation (a string continued across lines).
  let forceLine = false;
  const breakLine = (indent: number) => {
    if (out === "") return;
    if (pending !== "blank") pending = "line";
    pendingIndent = indent;
  };

  for (let i = 0; i < n; i++) {
    const item = items[i] as Item;
    const t = item.token;
    const top = stack[stack.length - 1] as Frame;
    const comment = isComment(t);
    let space = !item.glued && spaceBetween(prev, item, prevUnary);
    if (item.continuesString) {
      breakLine(lineIndent);
      forceLine = true;
    }
    let unary = false;

    if (comment) {
      if (item.lineBefore && pending === "") breakLine(lineIndent);
    } else if (top.kind !== INLINE) {
      const words = clauseWords(i, prevCode, top.first);
      if (words > 0) {
        const setOperator = SET_OPERATORS.has(t.upper);
        if (!top.first || pending !== "") breakLine(top.indent);
        top.spread = spread[i] === 1;
        top.bodyIndent = top.indent + size;
        top.between = false;
        // The clause's words, then its body: beside it, or on the next lines when spread.
        write(t, space);
        for (let w = 1; w < words; w++) {
          i = nextCode[i] as number;
          write((items[i] as Item).token, true);
        }
        // UNION ALL / UNION DISTINCT stay on the operator's line.
        if (setOperator) {
          const after = nextToken(i);
          if (after?.upper === "ALL" || after?.upper === "DISTINCT") {
            i = nextCode[i] as number;
            write((items[i] as Item).token, true);
          }
          breakLine(top.indent);
          top.first = true;
        } else {
          top.first = false;
          if (top.spread) breakLine(top.bodyIndent);
        }
        prevUnary = false;
        continue;
      }
      top.first = false;
      if (top.spread) {
        if (isWord(t) && t.upper === "BETWEEN") top.between = true;
        else if (isWord(t) && (t.upper === "AND" || t.upper === "OR")) {
          if (t.upper === "AND" && top.between) top.between = false;
          else breakLine(top.bodyIndent);
        }
      }
    }

    if (t.kind === "punctuation" && t.text === ")" && stack.length > 1) {
      const done = stack.pop() as Frame;
      if (done.kind === BLOCK || done.spread) breakLine(done.indent - size);
      write(t, space && done.kind !== BLOCK && !done.spread);
      continue;
    }
    if (t.kind === "operator" && (t.text === "-" || t.text === "+" || t.text === "~")) {
      unary = !item.glued && isUnaryPosition(prevCode);
      if (unary && prevCode?.kind === "operator" && !item.glued) space = true;
    }
    write(t, space);
    prevUnary = unary;
    if (t.kind === "line_comment") breakLine(lineIndent);
    else if (t.kind === "punctuation") {
      if (t.text === "(") {
        const base = lineIndent;
        if (blockOpen[i] === 1) {
          stack.push({
            kind: BLOCK,
            indent: base + size,
            bodyIndent: base + 2 * size,
            spread: false,
            first: true,
            between: false,
          });
          breakLine(base + size);
        } else {
          const list = spread[i] === 1;
          stack.push({
            kind: INLINE,
            indent: base + size,
            bodyIndent: base + size,
            spread: list,
            first: true,
            between: false,
          });
          if (list) breakLine(base + size);
        }
      } else if (t.text === ",") {
        if (top.spread) breakLine(top.bodyIndent);
      } else if (t.text === ";" && stack.length === 1) {
        pending = "blank";
        pendingIndent = 0;
        top.first = true;
        top.spread = false;
      }
    }
  }
  return out;

  function write(t: Token, space: boolean): void {
    if (
      pending !== "" &&
      size === 0 &&
      pending === "line" &&
      !endsWithLineComment() &&
      !forceLine
    ) {
      // With no indentation, a statement stays on one line.
      pending = "";
      space = out !== "";
    }
    if (pending !== "") {
      out += pending === "blank" ? "\n\n" : "\n";
      const indent = Math.min(pendingIndent, MAX_INDENT_COLUMN);
      out += pad(indent);
      lineIndent = indent;
      pending = "";
    } else if (space && out !== "") out += " ";
    forceLine = false;
    out += textOf(t);
    prev = t;
    if (!isComment(t)) prevCode = t;
  }

  function endsWithLineComment(): boolean {
    return prev?.kind === "line_comment";
  }

  function textOf(t: Token): string {
    if (t.kind === "line_comment") return t.text.trimEnd();
    if (
      options.uppercaseKeywords &&
      t.kind === "keyword" &&
      t.upper !== "TRUE" &&
      t.upper !== "FALSE"
    )
      return t.upper;
    return t.text;
  }
}

/** True when a `-`, `+` or `~` after `prev` is a sign (unary), not an operator between values. */
function isUnaryPosition(prev: Token | undefined): boolean {
  if (prev === undefined) return true;
  switch (prev.kind) {
    case "operator":
      return true;
    case "punctuation":
      return prev.text === "(" || prev.text === "," || prev.text === "[";
    case "keyword":
      return !OPERAND_KEYWORDS.has(prev.upper);
    default:
      return false;
  }
}

/** True when `.1` right after `prev` would read as a field of it (`f(x).1`, `t.1`, `"t".1`). */
function canHaveField(prev: Token): boolean {
  if (prev.kind === "punctuation") return prev.text === ")" || prev.text === "]";
  return prev.kind === "identifier" || prev.kind === "quoted_identifier" || prev.kind === "keyword";
}

/** Whether a space goes between the previous token and this item when both are on one line. */
function spaceBetween(prev: Token | undefined, item: Item, prevUnary: boolean): boolean {
  const t = item.token;
  if (prev === undefined) return false;
  if (t.kind === "line_comment" || t.kind === "block_comment") return true;
  if (prev.kind === "block_comment") return true;
  // A sign sticks to its value, but never to another operator (`- -1` must not become `--1`).
  if (prevUnary) return t.kind === "operator";
  // `f(x).1`, `t.1`: a number that starts with a dot is a field access when it touches what
  // comes before it, and a value when it does not: keep the gap as written (issue 25).
  if (t.kind === "number" && t.text.charCodeAt(0) === 46 && canHaveField(prev)) {
    return item.gapBefore;
  }
  if (t.kind === "punctuation") {
    switch (t.text) {
      case ",":
      case ";":
      case ")":
      case ".":
        return false;
      case "]":
      case "[":
      case "{":
      case "}":
        return item.gapBefore;
      case "(":
        if (prev.kind === "keyword" && SPACED_BEFORE_PAREN.has(prev.upper)) return true;
        if (prev.kind === "punctuation") return prev.text === "," || prev.text === ")";
        if (prev.kind === "operator") return SPACED_OPERATORS.has(prev.text);
        return item.gapBefore;
    }
  }
  if (prev.kind === "punctuation") {
    switch (prev.text) {
      case "(":
      case ".":
        return false;
      case "[":
      case "{":
      case "}":
      case "]":
        return item.gapBefore;
    }
  }
  if (t.kind === "operator") return SPACED_OPERATORS.has(t.text) || item.gapBefore;
  if (prev.kind === "operator") return SPACED_OPERATORS.has(prev.text) || item.gapBefore;
  if (t.kind === "unknown" || prev.kind === "unknown") return item.gapBefore;
  return true;
}
