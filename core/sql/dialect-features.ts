import type { SqlSyntaxError } from "../ports/sql-parser.js";
import type { SqlDialect } from "./dialects.js";
import { findMissingOperand } from "./missing-operand.js";
import { findNonStatement } from "./statement-start.js";
import { isSignificant, type Token } from "./token.js";

/** Display names for messages. */
const DIALECT_NAME: Record<SqlDialect, string> = {
  generic: "generic SQL",
  mysql: "MySQL",
  postgresql: "PostgreSQL",
  sqlite: "SQLite",
  sqlserver: "SQL Server",
  oracle: "Oracle",
  snowflake: "Snowflake",
};

type Dialects = readonly SqlDialect[];

/** Where each dialect-specific construct is valid (generic accepts all of them). */
const TOP: Dialects = ["sqlserver", "snowflake"];
const LIMIT: Dialects = ["mysql", "postgresql", "sqlite", "snowflake"];
const DOUBLE_COLON_CAST: Dialects = ["postgresql", "snowflake"];
const QUALIFY: Dialects = ["snowflake"];
const CONNECT_BY: Dialects = ["oracle", "snowflake"];
const OUTER_JOIN_MARK: Dialects = ["oracle"];
const PRAGMA: Dialects = ["sqlite"];
const BACKTICKS: Dialects = ["mysql", "sqlite"];
const BRACKETS: Dialects = ["sqlserver", "sqlite"];
const ILIKE: Dialects = ["postgresql", "snowflake"];
const DISTINCT_ON: Dialects = ["postgresql"];

const LIMIT_ADVICE: Partial<Record<SqlDialect, string>> = {
  sqlserver: "use TOP or OFFSET/FETCH NEXT instead",
  oracle: "use FETCH FIRST n ROWS ONLY or ROWNUM instead",
};
const TOP_ADVICE: Partial<Record<SqlDialect, string>> = {
  oracle: "use ROWNUM or FETCH FIRST n ROWS ONLY instead",
};

/** Words after which a following word is a name, not a clause keyword. */
const NAME_CONTEXT = new Set([",", ".", "(", "AS", "SELECT", "BY", "DISTINCT"]);
/** Tokens after which a word was used as a name (`SELECT limit, x`, `qualify = 1`). */
const NAME_FOLLOWERS = new Set([",", ".", ")", "=", "<", ">", "<>", "!=", "AS", "FROM", ";"]);
/** Tokens a trailing comma may not precede. */
const AFTER_COMMA_INVALID = new Set([
  "FROM", "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "UNION", "EXCEPT", "INTERSECT", ")", ";",
]); // prettier-ignore

/**
 * The first construct in `tokens` that `dialect` does not accept, as a positioned syntax error.
 * It makes the lenient dialect modes of the multi-dialect parser strict: `TOP` only in SQL Server
 * and Snowflake, no `LIMIT` in SQL Server or Oracle, `::` casts only in PostgreSQL and Snowflake,
 * `QUALIFY` only in Snowflake, `CONNECT BY` only in Oracle and Snowflake, `(+)` only in Oracle,
 * `PRAGMA` only in SQLite, backtick names only in MySQL and SQLite, `[bracket]` names only in
 * SQL Server and SQLite, `ILIKE` only in PostgreSQL and Snowflake, `DISTINCT ON` only in
 * PostgreSQL; and the phrases of {@link PHRASES} (`REPLACE INTO`, `INSERT OR`, `ON DUPLICATE KEY`,
 * `ON CONFLICT`, `SHOW`, `DESCRIBE`, `WITH RECURSIVE`, materialized views, `CROSS/OUTER APPLY`,
 * `FETCH FIRST/NEXT`, `LATERAL`) outside their dialects. Every dialect, `generic` included, rejects
 * an unterminated block comment, a trailing comma before a clause, a missing operand
 * (`WHERE AND`, `x IN ()`: `findMissingOperand`), and a statement that does not
 * start with a statement word of the dialect (`findNonStatement`: the multi-dialect parser reads
 * `SELEC * FRM t` as an expression). The first violation in the text is reported; a dialect
 * feature's own message wins over `unexpected X` at the same token.
 *
 * @example
 * findDialectViolation(tokenize("SELECT * FROM t LIMIT 5"), "sqlserver");
 * // { line: 1, column: 17, reason: "LIMIT clause is not supported in SQL Server; use TOP or OFFSET/FETCH NEXT instead" }
 * findDialectViolation(tokenize("SELEC * FRM t"), "mysql"); // { line: 1, column: 1, reason: "unexpected SELEC" }
 */
export function findDialectViolation(
  tokens: readonly Token[],
  dialect: SqlDialect,
): SqlSyntaxError | undefined {
  const feature = findFeatureViolation(tokens, dialect);
  return earliest(feature, findNonStatement(tokens, dialect));
}

function findFeatureViolation(
  tokens: readonly Token[],
  dialect: SqlDialect,
): SqlSyntaxError | undefined {
  // Only MySQL has `#` comments; elsewhere `#name` is a temp table or an operator, so it stays
  // in as an opaque token (else `SELECT a,\n#t.b FROM #t` would show a trailing comma).
  const hashIsCode = dialect !== "mysql";
  const sig = tokens.filter((t) => isSignificant(t) || (hashIsCode && isHashComment(t)));
  const structural = earliest(
    trailingComma(sig, dialect === "generic" || dialect === "sqlserver"),
    findMissingOperand(sig, dialect),
  );
  const found =
    dialect === "generic" ? structural : earliest(findFeature(sig, dialect), structural);
  return earliest(found, unclosedComment(tokens));
}

/**
 * The multi-dialect parser accepts an unclosed `/*` (it rejects unclosed strings itself). Such a
 * comment runs to the end of the input, so it is the last token, and the last violation: every
 * check still runs before it, whatever the input's end looks like, so the work of this pass
 * does not depend on whether the text happens to end inside a comment.
 */
function unclosedComment(tokens: readonly Token[]): SqlSyntaxError | undefined {
  const last = tokens[tokens.length - 1];
  if (last?.kind !== "block_comment" || last.unterminated !== true) return undefined;
  return at(last, "unterminated block comment");
}

function findFeature(sig: readonly Token[], dialect: SqlDialect): SqlSyntaxError | undefined {
  let statementStart = true;
  const name = DIALECT_NAME[dialect];
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i] as Token;
    const prev = sig[i - 1];
    const next = sig[i + 1];
    const up = t.upper;
    if (statementStart && up === "PRAGMA" && !PRAGMA.includes(dialect)) {
      return at(t, `PRAGMA statements are not supported in ${name}`);
    }
    statementStart = t.text === ";";
    if (t.kind === "quoted_identifier") {
      if (t.text.startsWith("`") && !BACKTICKS.includes(dialect)) {
        return at(
          t,
          `backtick-quoted identifiers are not supported in ${name}; use "double quotes"`,
        );
      }
      if (t.text.startsWith("[") && !BRACKETS.includes(dialect)) {
        return at(
          t,
          `square-bracket identifiers are not supported in ${name}; use "double quotes"`,
        );
      }
      continue;
    }
    if (t.kind === "operator" && t.text === "::" && !DOUBLE_COLON_CAST.includes(dialect)) {
      // SQL Server uses `::` for static methods (`geography::Point(…)`) and securables.
      const isMethod = sig[i + 2]?.text === "(" || prev?.kind === "keyword";
      if (!(dialect === "sqlserver" && isMethod)) {
        return at(t, `'::' casts are not supported in ${name}; use CAST(x AS type)`);
      }
    }
    if (t.text === "(" && next?.text === "+" && sig[i + 2]?.text === ")") {
      if (!OUTER_JOIN_MARK.includes(dialect)) {
        return at(t, `the (+) outer join operator is not supported in ${name}; use LEFT JOIN`);
      }
    }
    if (t.kind !== "keyword" && t.kind !== "identifier") continue;
    if (up === "TOP" && isSelectHead(prev, sig[i - 2]) && !TOP.includes(dialect)) {
      const advice = TOP_ADVICE[dialect] ?? "use LIMIT/OFFSET instead";
      return at(t, `TOP clause is not supported in ${name}; ${advice}`);
    }
    if (up === "LIMIT" && isClauseWord(prev, next) && !LIMIT.includes(dialect)) {
      const advice = LIMIT_ADVICE[dialect] ?? "use FETCH FIRST n ROWS ONLY";
      return at(t, `LIMIT clause is not supported in ${name}; ${advice}`);
    }
    if (up === "QUALIFY" && isClauseWord(prev, next) && !QUALIFY.includes(dialect)) {
      return at(t, `QUALIFY clause is not supported in ${name}`);
    }
    if (up === "CONNECT" && next?.upper === "BY" && !CONNECT_BY.includes(dialect)) {
      if (isClauseWord(prev, next)) {
        return at(t, `CONNECT BY hierarchical queries are not supported in ${name}`);
      }
    }
    if (up === "ILIKE" && !ILIKE.includes(dialect) && prev !== undefined) {
      if (!NAME_CONTEXT.has(prev.upper) && !NAME_FOLLOWERS.has(next?.upper ?? ";")) {
        return at(t, `ILIKE is not supported in ${name}; use LOWER(x) LIKE LOWER(y)`);
      }
    }
    if (up === "ON" && prev?.upper === "DISTINCT" && next?.text === "(") {
      if (!DISTINCT_ON.includes(dialect)) {
        return at(prev, `DISTINCT ON is not supported in ${name}`);
      }
    }
    const phrase = PHRASES.find(
      (p) => !p.validIn.includes(dialect) && matches(p, sig, i, atStatementStart(sig, i)),
    );
    if (phrase !== undefined) return at(t, phrase.message.replace("{d}", name));
  }
  return undefined;
}

/** The violation that comes first in the text (the first argument on a tie). */
function earliest(
  a: SqlSyntaxError | undefined,
  b: SqlSyntaxError | undefined,
): SqlSyntaxError | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.line < a.line || (b.line === a.line && b.column < a.column) ? b : a;
}

/** A dialect-specific word sequence; `when` looks at the tokens around it. */
interface Phrase {
  readonly words: readonly string[];
  readonly validIn: Dialects;
  readonly message: string;
  readonly atStart?: true;
  readonly when?: (before: Token | undefined, after: Token | undefined) => boolean;
}

const ROW_COUNT = (_: Token | undefined, after: Token | undefined) =>
  after !== undefined &&
  (after.kind === "number" ||
    after.kind === "parameter" ||
    after.text === "(" ||
    after.upper === "ROW" ||
    after.upper === "ROWS");
const DESCRIBE: Dialects = ["mysql", "oracle", "snowflake"];
const FETCH_FIRST: Dialects = ["postgresql", "sqlserver", "oracle", "snowflake"];
const APPLY: Dialects = ["sqlserver", "oracle"];
const MULTITABLE_INSERT: Dialects = ["oracle", "snowflake"];

const PHRASES: readonly Phrase[] = [
  { words: ["REPLACE", "INTO"], atStart: true, validIn: ["mysql", "sqlite"], message: "REPLACE INTO is not supported in {d}; use MERGE or an upsert clause" },
  { words: ["INSERT", "OR"], validIn: ["sqlite"], message: "INSERT OR … conflict clauses are not supported in {d}" },
  { words: ["INSERT", "ALL"], atStart: true, validIn: MULTITABLE_INSERT, message: "multi-table INSERT ALL is not supported in {d}" },
  { words: ["INSERT", "FIRST"], atStart: true, validIn: MULTITABLE_INSERT, message: "multi-table INSERT FIRST is not supported in {d}" },
  { words: ["ON", "DUPLICATE", "KEY"], validIn: ["mysql"], message: "ON DUPLICATE KEY UPDATE is not supported in {d}" },
  { words: ["ON", "CONFLICT"], validIn: ["postgresql", "sqlite"], message: "ON CONFLICT is not supported in {d}" },
  { words: ["SHOW"], atStart: true, validIn: ["mysql", "postgresql", "snowflake"], message: "SHOW statements are not supported in {d}" },
  { words: ["DESCRIBE"], atStart: true, validIn: DESCRIBE, message: "DESCRIBE statements are not supported in {d}" },
  { words: ["DESC"], atStart: true, validIn: DESCRIBE, message: "DESC statements are not supported in {d}" },
  { words: ["WITH", "RECURSIVE"], validIn: ["postgresql", "mysql", "sqlite", "snowflake"], message: "WITH RECURSIVE is not supported in {d}; a plain WITH can be recursive" },
  { words: ["MATERIALIZED", "VIEW"], validIn: ["postgresql", "oracle", "snowflake"], message: "materialized views are not supported in {d}" },
  { words: ["CROSS", "APPLY"], validIn: APPLY, message: "CROSS APPLY is not supported in {d}; use a LATERAL join" },
  { words: ["OUTER", "APPLY"], validIn: APPLY, message: "OUTER APPLY is not supported in {d}; use a LEFT JOIN LATERAL" },
  { words: ["FETCH", "FIRST"], validIn: FETCH_FIRST, when: ROW_COUNT, message: "FETCH FIRST is not supported in {d}; use LIMIT" },
  { words: ["FETCH", "NEXT"], validIn: FETCH_FIRST, when: ROW_COUNT, message: "FETCH NEXT is not supported in {d}; use LIMIT" },
  {
    words: ["LATERAL"],
    validIn: ["postgresql", "mysql", "oracle", "snowflake"],
    when: (before) => before !== undefined && [",", "JOIN", "FROM"].includes(before.upper),
    message: "LATERAL is not supported in {d}",
  },
]; // prettier-ignore

function matches(p: Phrase, sig: readonly Token[], i: number, atStart: boolean): boolean {
  if (p.atStart === true && !atStart) return false;
  for (let k = 0; k < p.words.length; k++) {
    const t = sig[i + k];
    if (t === undefined || (t.kind !== "keyword" && t.kind !== "identifier")) return false;
    if (t.upper !== p.words[k]) return false;
  }
  return p.when === undefined || p.when(sig[i - 1], sig[i + p.words.length]);
}

function atStatementStart(sig: readonly Token[], i: number): boolean {
  return i === 0 || sig[i - 1]?.text === ";";
}

function isHashComment(t: Token): boolean {
  return t.kind === "line_comment" && t.text.startsWith("#");
}

/** `SELECT TOP`, `SELECT DISTINCT TOP`, `DELETE TOP`, `UPDATE TOP`, `INSERT TOP`. */
function isSelectHead(prev: Token | undefined, before: Token | undefined): boolean {
  if (prev === undefined) return false;
  const p = prev.upper;
  if (p === "SELECT" || p === "DELETE" || p === "UPDATE" || p === "INSERT") return true;
  return (p === "DISTINCT" || p === "ALL") && before?.upper === "SELECT";
}

/** True when a word stands where a clause keyword goes, not where a name does. */
function isClauseWord(prev: Token | undefined, next: Token | undefined): boolean {
  if (prev === undefined || next === undefined) return false;
  if (NAME_CONTEXT.has(prev.upper)) return false;
  return !NAME_FOLLOWERS.has(next.upper);
}

/** SQL Server accepts `CREATE TABLE t (a int,)`; so does `generic`, which accepts what it does. */
function trailingComma(sig: readonly Token[], beforeParen: boolean): SqlSyntaxError | undefined {
  for (let i = 0; i < sig.length; i++) {
    if (sig[i]?.text !== ",") continue;
    const next = sig[i + 1];
    if (next === undefined) return at(sig[i] as Token, "unexpected end of input after ','");
    if (next.text === ")" && beforeParen) continue;
    if (AFTER_COMMA_INVALID.has(next.upper)) {
      return at(next, `unexpected ${next.text} after ',', expected an expression`);
    }
  }
  return undefined;
}

function at(t: Token, reason: string): SqlSyntaxError {
  return { line: t.line, column: t.column, reason };
}
