/**
 * Constant condition terms (`1=1`, `'a'='a'`, `col=col`) for the tautology detectors.
 * Long because: finding the terms and evaluating them (literals, comparisons, identities) share
 * the keyword sets at the top and the token walk; each half alone reads only with the other.
 */
import type { Token } from "../token.js";
import type { ConstantTerm, TermValue } from "./constant-term.js";
import type { ScanContext } from "./scan-context.js";
import { COMPARISON_OPERATORS } from "./signals.js";

/** Clauses whose expressions are conditions. */
const CONDITION_CLAUSES: ReadonlySet<string> = new Set(["WHERE", "HAVING", "ON", "WHEN"]);
/** Keywords that switch the clause at their depth. */
const CLAUSE_WORDS: ReadonlySet<string> = new Set([
  "WHERE", "HAVING", "ON", "WHEN", "THEN", "ELSE", "END", "SET", "SELECT", "VALUES", "ORDER", "GROUP",
  "LIMIT", "FROM", "JOIN", "USING", "RETURNING", "INTO", "UNION", "EXCEPT", "INTERSECT", "OFFSET",
  "FETCH", "WINDOW", "QUALIFY",
]); // prettier-ignore
/** Tokens after which a new condition term starts. */
const TERM_STARTERS: ReadonlySet<string> = new Set([
  "WHERE",
  "HAVING",
  "ON",
  "AND",
  "OR",
  "WHEN",
  "(",
  "&&",
  // MySQL's OR (elsewhere concatenation: the tautology detector only trusts comparisons after it).
  "||",
]);
/** Tokens that end a term at its own depth. */
const TERM_ENDERS: ReadonlySet<string> = new Set([
  "AND", "OR", "&&", ";", "THEN", "ORDER", "GROUP", "LIMIT", "UNION", "HAVING", "INTO", "EXCEPT",
  "INTERSECT", "WINDOW", "OFFSET", "FETCH", "RETURNING", "ELSE", "END", "WHERE", "FROM", "QUALIFY",
]); // prettier-ignore
const CONSTANT_WORDS: ReadonlySet<string> = new Set([
  "TRUE",
  "FALSE",
  "NULL",
  "NOT",
  "IS",
  "LIKE",
  "IN",
  "BETWEEN",
  "DIV",
  "MOD",
]);
/** Functions whose value depends on the rows read, even with constant arguments. */
const AGGREGATES: ReadonlySet<string> = new Set([
  "COUNT", "SUM", "AVG", "MIN", "MAX", "STDDEV", "VARIANCE", "GROUP_CONCAT", "STRING_AGG",
  "ARRAY_AGG", "LISTAGG", "BOOL_AND", "BOOL_OR", "EVERY", "ANY_VALUE", "ROW_NUMBER", "RANK",
  "DENSE_RANK", "NTILE", "LAG", "LEAD", "FIRST_VALUE", "LAST_VALUE", "RAND", "RANDOM", "NEWID",
]); // prettier-ignore
/** Longest term examined: constant conditions in attacks are short, and the cap bounds the work. */
const MAX_TERM = 64;

function wordOf(token: Token | undefined): string {
  if (token === undefined) return "";
  return token.kind === "keyword" || token.kind === "identifier" ? token.upper : token.text;
}

function isConstantToken(sig: readonly Token[], k: number): boolean {
  const t = sig[k] as Token;
  switch (t.kind) {
    case "number":
    case "string":
    case "operator":
      return t.text !== ":=";
    case "keyword":
      // Function-like keywords (`CHAR(49)`, `LEFT('a', 1)`) are as constant as their arguments.
      return CONSTANT_WORDS.has(t.upper) || sig[k + 1]?.text === "(";
    case "identifier":
      // A call is as constant as its arguments, except aggregates and `f(*)`, which read rows.
      return sig[k + 1]?.text === "(" && !AGGREGATES.has(t.upper) && sig[k + 2]?.text !== "*";
    case "punctuation":
      return t.text === "(" || t.text === ")" || t.text === ",";
    default:
      return false;
  }
}

type Literal = { num: number } | { str: string } | null;

function literal(t: Token | undefined): Literal | undefined {
  if (t === undefined) return undefined;
  if (t.kind === "number") {
    const n = /^0x/i.test(t.text) ? Number.parseInt(t.text.slice(2), 16) : Number(t.text);
    return Number.isNaN(n) ? undefined : { num: n };
  }
  if (t.kind === "string") {
    if (t.text.startsWith("'"))
      return { str: t.text.slice(1, t.unterminated ? undefined : -1).replaceAll("''", "'") };
    if (/^[en]'/i.test(t.text))
      return { str: t.text.slice(2, t.unterminated ? undefined : -1).replaceAll("''", "'") };
    return undefined;
  }
  if (t.kind === "keyword") {
    if (t.upper === "TRUE") return { num: 1 };
    if (t.upper === "FALSE") return { num: 0 };
    if (t.upper === "NULL") return null;
  }
  return undefined;
}

/** MySQL's string-to-number conversion: the leading numeric prefix, else 0. */
function toNumber(value: { num: number } | { str: string }): number {
  if ("num" in value) return value.num;
  const match = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?/i.exec(value.str);
  return match === null ? 0 : Number(match[0]);
}

function compare(a: Literal, op: string, b: Literal): TermValue {
  if (a === null || b === null) return "false";
  if (op === "LIKE") {
    if ("str" in b && /[%_]/.test(b.str)) return b.str === "%" ? "true" : "unknown";
    op = "=";
  }
  let diff: number;
  if ("str" in a && "str" in b) {
    const x = a.str.toLowerCase();
    const y = b.str.toLowerCase();
    diff = x === y ? 0 : x < y ? -1 : 1;
  } else {
    diff = toNumber(a) - toNumber(b);
  }
  const result =
    op === "=" || op === "==" || op === "<=>"
      ? diff === 0
      : op === "<>" || op === "!="
        ? diff !== 0
        : op === "<"
          ? diff < 0
          : op === ">"
            ? diff > 0
            : op === "<="
              ? diff <= 0
              : diff >= 0;
  return result ? "true" : "false";
}

function evaluate(sig: readonly Token[], from: number, to: number): TermValue {
  const first = sig[from];
  if (first?.upper === "NOT" && first.kind === "keyword") {
    const inner = evaluate(sig, from + 1, to);
    return inner === "unknown" ? inner : inner === "true" ? "false" : "true";
  }
  const n = to - from;
  if (n === 1) {
    const value = literal(first);
    if (value === undefined) return "unknown";
    return value !== null && toNumber(value) !== 0 ? "true" : "false";
  }
  if (n === 3) {
    const op = wordOf(sig[from + 1]);
    const a = literal(first);
    const b = literal(sig[from + 2]);
    if (COMPARISON_OPERATORS.has(op) && a !== undefined && b !== undefined)
      return compare(a, op, b);
  }
  if ((n === 3 || n === 4) && wordOf(sig[from + 1]) === "IS") {
    const a = literal(first);
    const negated = n === 4 && wordOf(sig[from + 2]) === "NOT";
    if (a !== undefined && wordOf(sig[to - 1]) === "NULL")
      return (a === null) !== negated ? "true" : "false";
  }
  return "unknown";
}

/** End of a dotted name starting at `k` (`a`, `a.b`, `"a"."b"`), or -1. */
function nameEnd(sig: readonly Token[], k: number): number {
  let j = k;
  for (;;) {
    const t = sig[j];
    if (t === undefined || (t.kind !== "identifier" && t.kind !== "quoted_identifier")) return -1;
    j++;
    if (sig[j]?.text !== ".") return j;
    j++;
  }
}

/**
 * Calls `visit` for every condition term that is constant (`1=1`, `'a'='a'`, `TRUE`, `2>1`,
 * `NOT 0`, `CHAR(65)='A'`) or compares a name with itself (`col=col`), in source order. Linear:
 * each term is examined at most {@link MAX_TERM} tokens far.
 *
 * @example
 * forEachConstantTerm(createScanContext("SELECT 1 FROM t WHERE a = 1 OR 1=1"), (term) => term.before); // "OR"
 */
export function forEachConstantTerm(ctx: ScanContext, visit: (term: ConstantTerm) => void): void {
  // Two detector families read the terms of one scan; find them once.
  let terms = ctx.memo.terms;
  if (terms === undefined) {
    const found: ConstantTerm[] = [];
    findConstantTerms(ctx, (term) => found.push(term));
    terms = found;
    ctx.memo.terms = terms;
  }
  for (const term of terms) visit(term);
}

function findConstantTerms(ctx: ScanContext, visit: (term: ConstantTerm) => void): void {
  const { sig, depth } = ctx;
  for (const statement of ctx.statements) {
    const clauses: string[] = [""];
    let conditionCount = 0;
    // `x BETWEEN a AND b`: that AND joins the bounds, it does not start a new term.
    let betweenDepth = -1;
    let betweenAnd = -1;
    for (let k = statement.from; k < statement.to; k++) {
      const t = sig[k] as Token;
      const word = wordOf(t);
      if (t.kind === "keyword" && word === "BETWEEN") betweenDepth = depth[k] ?? 0;
      else if (t.kind === "keyword" && word === "AND" && betweenDepth === depth[k]) {
        betweenAnd = k;
        betweenDepth = -1;
      }
      if (t.text === "(") {
        clauses.push(clauses[clauses.length - 1] ?? "");
        if (CONDITION_CLAUSES.has(clauses[clauses.length - 2] ?? "")) conditionCount++;
      } else if (t.text === ")") {
        if (clauses.length > 1) {
          clauses.pop();
          if (CONDITION_CLAUSES.has(clauses[clauses.length - 1] ?? "")) conditionCount--;
        }
      } else if (t.kind === "keyword" && CLAUSE_WORDS.has(word)) {
        clauses[clauses.length - 1] = word;
      }
      const clause = clauses[clauses.length - 1] ?? "";
      if (
        !CONDITION_CLAUSES.has(clause) ||
        !TERM_STARTERS.has(wordOf(sig[k - 1])) ||
        k - 1 < statement.from
      )
        continue;
      if (t.text === "(" || word === "SELECT" || k - 1 === betweenAnd) continue;
      // A `(` opens a condition only where a condition goes (`WHERE (`, `OR ((`, `NOT (`); after
      // `IN`, a function name or `VALUES` it opens a list, whose items are no terms (issue 8:
      // `status IN ('a','b') OR priority > 3` is no tautology).
      if (sig[k - 1]?.text === "(" && !opensCondition(sig[k - 2])) continue;
      const end = termEnd(sig, depth, k, statement.to);
      if (end < 0) continue;
      let b = k - 1;
      while (b > statement.from && sig[b]?.text === "(") b--;
      // `BETWEEN ('2016-01-01') AND ('2016-01-07')`: a parenthesised bound is no term either.
      if (b === betweenAnd) continue;
      let a = end;
      while (a < statement.to && sig[a]?.text === ")") a++;
      // `CASE WHEN (-1) * col IS NULL`: the parenthesised constant is an operand of a longer,
      // non-constant condition, not a term of its own.
      if (end < a && continuesWithName(sig, a, statement.to)) continue;
      visit({
        from: k,
        to: end,
        before: wordOf(sig[b]),
        after: a < statement.to ? wordOf(sig[a]) : "",
        clause,
        nestedInCondition: conditionCount > 0,
        value: identityValue(sig, k, end) ?? evaluate(sig, k, end),
      });
    }
  }
}

/**
 * True when the expression going on at `from` (after a parenthesised constant) reads a name or
 * anything else that is not constant before the term ends (`* col IS NULL`).
 */
function continuesWithName(sig: readonly Token[], from: number, limit: number): boolean {
  const stop = Math.min(limit, from + MAX_TERM);
  for (let j = from; j < stop; j++) {
    if (TERM_ENDERS.has(wordOf(sig[j]))) return false;
    if (!isConstantToken(sig, j)) return true;
  }
  return false;
}

/** True when a `(` after `before` groups a condition rather than opening a list or arguments. */
function opensCondition(before: Token | undefined): boolean {
  if (before === undefined) return true;
  const word = wordOf(before);
  return TERM_STARTERS.has(word) || (before.kind === "keyword" && word === "NOT");
}

/** End of the constant term starting at `k`, or -1 when the term is not constant. */
function termEnd(sig: readonly Token[], depth: Int32Array, k: number, limit: number): number {
  const identity = identityEnd(sig, k);
  if (identity > 0) return identity;
  const base = depth[k] ?? 0;
  let betweenPending = false;
  const stop = Math.min(limit, k + MAX_TERM);
  for (let j = k; j < stop; j++) {
    const t = sig[j] as Token;
    if ((depth[j] ?? 0) === base) {
      const word = t.kind === "string" ? "" : wordOf(t);
      if (t.text === ")") return j > k ? j : -1;
      if (word === "AND" && betweenPending) {
        betweenPending = false;
        continue;
      }
      if (TERM_ENDERS.has(word)) return j > k ? j : -1;
      if (word === "BETWEEN") betweenPending = true;
    }
    if (!isConstantToken(sig, j)) return -1;
  }
  return stop === limit ? limit : -1;
}

function isComparison(t: Token | undefined): boolean {
  return t !== undefined && COMPARISON_OPERATORS.has(wordOf(t));
}

/**
 * End of a `name <cmp> name` term comparing a name with itself, starting at `k` and followed by a
 * term boundary, or -1.
 */
function identityEnd(sig: readonly Token[], k: number): number {
  const left = nameEnd(sig, k);
  if (left < 0 || !isComparison(sig[left])) return -1;
  const right = nameEnd(sig, left + 1);
  if (right < 0 || right - (left + 1) !== left - k) return -1;
  const next = sig[right];
  if (next !== undefined && next.text !== ")" && !TERM_ENDERS.has(wordOf(next))) return -1;
  for (let j = 0; j < left - k; j++) {
    if (wordOf(sig[k + j]).toUpperCase() !== wordOf(sig[left + 1 + j]).toUpperCase()) return -1;
  }
  return right;
}

function identityValue(sig: readonly Token[], k: number, end: number): TermValue | undefined {
  if (identityEnd(sig, k) !== end) return undefined;
  const op = wordOf(sig[nameEnd(sig, k)]);
  return op === "<>" || op === "!=" || op === "<" || op === ">" ? "false" : "true";
}
