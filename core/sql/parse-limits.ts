import type { SqlSyntaxError } from "../ports/sql-parser.js";
import type { Token } from "./token.js";

/**
 * What the WASM parsers are given at most. Both build trees recursively, and so do the walkers
 * over their trees: past these sizes a deep tree overflows a stack (a JavaScript RangeError, a
 * WASM trap) or costs super-linear time (issue 8: `1+1+…`, CASE nesting and UNION chains answered
 * -32603; runs of `/*` took minutes). Real SQL stays far below them.
 *
 * @example
 * PARSE_LIMITS.depth; // 200
 */
export const PARSE_LIMITS = Object.freeze({
  /** Parentheses and CASE … END nested in one another. */
  depth: 200,
  /** Operators in one operand of AND/OR: `a + b + …` nests the tree one level per operator. */
  chain: 1000,
  /** AND/OR in one expression (the parsers keep them flatter: a list, not a nested tree). */
  conditions: 4000,
  /** UNION/INTERSECT/EXCEPT in one statement: each nests the tree one level. */
  setOperations: 500,
  /**
   * JOINs in one statement: each nests the tree one level (`t0 JOIN t1 … JOIN tn` is a chain as
   * deep as it is long), and PostgreSQL's parser overflowed its stack near 7,000 (issue 26).
   */
  joins: 2000,
  /**
   * Dots in one qualified name (`a.b.c` has 2): each nests the tree one level, and polyglot's
   * grammar overflowed its stack on a 100,000-part name (issue 26; it refuses over 512 levels).
   */
  nameParts: 500,
  /** Statements in one text. */
  statements: 5000,
});

const SET_OPERATORS = new Set(["UNION", "INTERSECT", "EXCEPT", "MINUS"]);
/** Words that end an expression (its operator chain starts again after them). */
const EXPRESSION_BREAKS = new Set([
  "SELECT", "FROM", "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "OFFSET", "SET", "VALUES",
  "WHEN", "THEN", "ELSE", "END", "ON", "JOIN", "UNION", "INTERSECT", "EXCEPT", "MINUS", "AS",
  "RETURNING", "USING", "INTO",
]); // prettier-ignore

function isCode(t: Token): boolean {
  return (
    t.kind !== "whitespace" &&
    t.kind !== "newline" &&
    t.kind !== "line_comment" &&
    t.kind !== "block_comment"
  );
}

/**
 * The first place where `tokens` go past a {@link PARSE_LIMITS} limit, or an unterminated block
 * comment (which every dialect rejects, nesting or not), as a syntax error to answer without
 * calling a parser; undefined when the text may be parsed. One pass, constant work per token.
 *
 * @example
 * findParseLimit(tokenize(`SELECT ${"(".repeat(300)}1${")".repeat(300)}`));
 * // { line: 1, column: 208, reason: "nesting deeper than 200 levels of parentheses and CASE (limit of the parsers)" }
 */
export function findParseLimit(tokens: readonly Token[]): SqlSyntaxError | undefined {
  let depth = 0;
  // Operators in the current operand and AND/OR in the current expression, per nesting level
  // (levels are bounded by `depth`).
  const chains: number[] = [0];
  const conditions: number[] = [0];
  let setOperations = 0;
  let joins = 0;
  let dots = 0;
  let afterDot = false;
  let statements = 0;
  let statementOpen = false;
  for (const t of tokens) {
    if (t.kind === "block_comment" && t.unterminated === true) {
      return at(t, "unterminated comment");
    }
    if (!isCode(t)) continue;
    if (!statementOpen && t.text !== ";") {
      statementOpen = true;
      if (++statements > PARSE_LIMITS.statements) {
        return at(t, `more than ${PARSE_LIMITS.statements} statements (limit of the parsers)`);
      }
    }
    if (t.kind === "punctuation" && t.text === ".") {
      afterDot = true;
      if (++dots > PARSE_LIMITS.nameParts) {
        return at(
          t,
          `a name of more than ${PARSE_LIMITS.nameParts} dotted parts (limit of the parsers)`,
        );
      }
      continue;
    }
    // A token after a dot continues the name; any other starts afresh.
    if (!afterDot) dots = 0;
    afterDot = false;
    const word = t.kind === "keyword" || t.kind === "identifier" ? t.upper : "";
    if (t.text === "(" || word === "CASE") {
      if (++depth > PARSE_LIMITS.depth) {
        return at(
          t,
          `nesting deeper than ${PARSE_LIMITS.depth} levels of parentheses and CASE (limit of the parsers)`,
        );
      }
      chains[depth] = 0;
      conditions[depth] = 0;
      continue;
    }
    if ((t.text === ")" || word === "END") && t.kind !== "string") {
      if (depth > 0) depth--;
      continue;
    }
    if (t.text === ";" && t.kind === "punctuation") {
      if (depth === 0) {
        statementOpen = false;
        setOperations = 0;
        joins = 0;
      }
      chains[depth] = 0;
      conditions[depth] = 0;
      continue;
    }
    if (t.text === "," || EXPRESSION_BREAKS.has(word)) {
      chains[depth] = 0;
      conditions[depth] = 0;
      if (word === "JOIN" && ++joins > PARSE_LIMITS.joins) {
        return at(
          t,
          `more than ${PARSE_LIMITS.joins} JOINs in one statement (limit of the parsers)`,
        );
      }
      if (SET_OPERATORS.has(word) && ++setOperations > PARSE_LIMITS.setOperations) {
        return at(
          t,
          `more than ${PARSE_LIMITS.setOperations} UNION/INTERSECT/EXCEPT in one statement (limit of the parsers)`,
        );
      }
      continue;
    }
    if (word === "AND" || word === "OR") {
      chains[depth] = 0;
      const count = (conditions[depth] ?? 0) + 1;
      conditions[depth] = count;
      if (count > PARSE_LIMITS.conditions) {
        return at(
          t,
          `an expression of more than ${PARSE_LIMITS.conditions} AND/OR (limit of the parsers)`,
        );
      }
      continue;
    }
    if (t.kind === "operator") {
      const chain = (chains[depth] ?? 0) + 1;
      chains[depth] = chain;
      if (chain > PARSE_LIMITS.chain) {
        return at(
          t,
          `an expression of more than ${PARSE_LIMITS.chain} operators (limit of the parsers)`,
        );
      }
    }
  }
  return undefined;
}

function at(t: Token, reason: string): SqlSyntaxError {
  return { line: t.line, column: t.column, reason };
}
