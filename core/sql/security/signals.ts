import type { Token } from "../token.js";
import type { ScanContext } from "./scan-context.js";

/** Catalogs and system tables attackers enumerate (upper-case). */
const SYSTEM_TABLES: ReadonlySet<string> = new Set([
  "INFORMATION_SCHEMA", "PG_CATALOG", "PG_SHADOW", "PG_USER", "PG_AUTHID", "PG_ROLES", "PG_TABLES",
  "PG_CLASS", "PG_ATTRIBUTE", "PG_NAMESPACE", "PG_PROC", "PG_DATABASE", "SYSOBJECTS", "SYSCOLUMNS",
  "SYSUSERS", "SYSDATABASES", "SYSLOGINS", "SQL_LOGINS", "SQLITE_MASTER", "SQLITE_SCHEMA",
  "SQLITE_TEMP_MASTER", "ALL_TABLES", "ALL_TAB_COLUMNS", "ALL_USERS", "USER_TABLES",
  "USER_TAB_COLUMNS", "DBA_USERS", "DBA_TABLES", "V$VERSION", "MSYSOBJECTS",
]); // prettier-ignore
/** Schemas that are system catalogs when used as a qualifier (`mysql.user`, `sys.objects`). */
const SYSTEM_QUALIFIERS: ReadonlySet<string> = new Set(["MYSQL", "SYS", "MASTER", "MSDB"]);

/** Functions that reveal the server (called with parentheses). */
const FINGERPRINT_CALLS: ReadonlySet<string> = new Set([
  "VERSION", "USER", "DATABASE", "SCHEMA", "DB_NAME", "USER_NAME", "SUSER_NAME", "SUSER_SNAME",
  "HOST_NAME", "CURRENT_DATABASE", "SQLITE_VERSION", "CONNECTION_ID", "LOAD_FILE",
  "CURRENT_SETTING",
]); // prettier-ignore
/** Words and server variables that reveal the server without parentheses. */
const FINGERPRINT_WORDS: ReadonlySet<string> = new Set([
  "CURRENT_USER", "SYSTEM_USER", "SESSION_USER", "BANNER", "@@VERSION", "@@HOSTNAME", "@@DATADIR",
  "@@SERVERNAME", "@@BASEDIR",
]); // prettier-ignore

/** Column and table names that hold credentials. */
const SENSITIVE_EXACT: ReadonlySet<string> = new Set([
  "PWD", "PASS", "PASSWD", "SSN", "SALT", "ADMIN", "ADMINS", "ADMINISTRATORS", "ADMIN_USERS",
  "PASSHASH", "PASS_HASH",
]); // prettier-ignore
const SENSITIVE_PARTS = [
  "PASSWORD",
  "PASSWD",
  "SECRET",
  "CREDIT_CARD",
  "CARD_NUMBER",
  "API_KEY",
  "PRIVATE_KEY",
];

function word(token: Token | undefined): string {
  if (token === undefined) return "";
  if (token.kind === "quoted_identifier") return token.text.slice(1, -1).toUpperCase();
  return token.upper;
}

/**
 * True when `sig[k]` names a system catalog or system table.
 *
 * @example
 * isSystemTableAt(ctx.sig, k); // true for `information_schema` in `information_schema.tables`
 */
export function isSystemTableAt(sig: readonly Token[], k: number): boolean {
  const t = sig[k];
  if (
    t === undefined ||
    (t.kind !== "identifier" && t.kind !== "quoted_identifier" && t.kind !== "keyword")
  )
    return false;
  const w = word(t);
  if (SYSTEM_TABLES.has(w)) return true;
  return SYSTEM_QUALIFIERS.has(w) && sig[k + 1]?.text === ".";
}

/**
 * True when `sig[k]` reveals the server: `version()`, `@@version`, `current_user`, `database()`….
 *
 * @example
 * isFingerprintAt(ctx.sig, k); // true for `@@version`
 */
export function isFingerprintAt(sig: readonly Token[], k: number): boolean {
  const t = sig[k];
  if (t === undefined) return false;
  if (t.kind === "parameter") return FINGERPRINT_WORDS.has(t.text.toUpperCase());
  if (t.kind !== "identifier" && t.kind !== "keyword") return false;
  if (sig[k - 1]?.text === ".") return false;
  if (FINGERPRINT_WORDS.has(t.upper)) return true;
  return FINGERPRINT_CALLS.has(t.upper) && sig[k + 1]?.text === "(";
}

/**
 * True when `sig[k]` is a name that usually holds credentials (`password`, `admins`, `api_key`…).
 *
 * @example
 * isSensitiveAt(ctx.sig, k); // true for `password_hash`
 */
export function isSensitiveAt(sig: readonly Token[], k: number): boolean {
  const t = sig[k];
  if (t === undefined || (t.kind !== "identifier" && t.kind !== "quoted_identifier")) return false;
  const w = word(t);
  if (SENSITIVE_EXACT.has(w)) return true;
  for (const part of SENSITIVE_PARTS) if (w.includes(part)) return true;
  return false;
}

/**
 * True when a comment's text begins with the orphaned end of a query it cut off: a closing
 * bracket, or a quote that leaves the comment's quotes unbalanced (`' AND pw = 'x'` has three).
 * A comment that merely quotes a word (`-- 'legacy' column`) is balanced and does not count.
 *
 * @example
 * orphanedQueryEnd("' AND password = 'x'"); // true
 */
export function orphanedQueryEnd(body: string): boolean {
  const text = body.trimStart();
  const c = text.charAt(0);
  if (c === ")" || c === "]") return true;
  if (c !== "'" && c !== '"' && c !== "`") return false;
  let count = 0;
  for (let i = 0; i < text.length; i++) if (text.charAt(i) === c) count++;
  return count % 2 === 1;
}

/**
 * Evidence that input truncated the original query: a line comment after code whose text starts
 * with the orphaned closing quote or bracket (`'admin'--' AND pw = …`), an empty comment ending
 * the input, or an unclosed block comment or string.
 *
 * @example
 * hasTruncation(createScanContext("SELECT 1 FROM t WHERE a = 'x'--'")); // true
 */
export function hasTruncation(ctx: ScanContext): boolean {
  ctx.memo.truncation ??= findTruncation(ctx);
  return ctx.memo.truncation;
}

/**
 * Index of the last token that is not whitespace or a newline (a comment counts), or -1.
 *
 * @example
 * lastNonBlankIndex(tokenize("SELECT 1 --\n")); // 2, the comment
 */
export function lastNonBlankIndex(tokens: readonly Token[]): number {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const kind = (tokens[i] as Token).kind;
    if (kind !== "whitespace" && kind !== "newline") return i;
  }
  return -1;
}

/**
 * The text of a line comment after its `--` or `#`.
 *
 * @example
 * lineCommentBody(tokenize("-- x")[0]); // " x"
 */
export function lineCommentBody(t: Token): string {
  return t.text.startsWith("#") ? t.text.slice(1) : t.text.slice(2);
}

function findTruncation(ctx: ScanContext): boolean {
  const tokens = ctx.tokens;
  let codeOnLine = false;
  const last = lastNonBlankIndex(tokens);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind === "newline") {
      codeOnLine = false;
      continue;
    }
    if (t.kind === "whitespace") continue;
    if (t.kind === "line_comment") {
      const body = lineCommentBody(t);
      if (codeOnLine && orphanedQueryEnd(body)) return true;
      if (i === last && codeOnLine && body.trim() === "") return true;
      continue;
    }
    if (t.unterminated === true && (t.kind === "block_comment" || t.kind === "string")) return true;
    if (
      t.kind === "block_comment" &&
      codeOnLine &&
      !t.text.startsWith("/*!") &&
      orphanedQueryEnd(t.text.slice(2, t.unterminated === true ? undefined : -2))
    )
      return true;
    codeOnLine = true;
  }
  return false;
}

/**
 * Index of the `)` matching the `(` at `open`, searching at most `limit` tokens, or -1.
 *
 * @example
 * matchingParen(ctx.sig, ctx.depth, 3, 256);
 */
export function matchingParen(
  sig: readonly Token[],
  depth: Int32Array,
  open: number,
  limit: number,
): number {
  const base = depth[open] ?? 0;
  const stop = Math.min(sig.length, open + limit);
  for (let j = open + 1; j < stop; j++) {
    if (sig[j]?.text === ")" && depth[j] === base + 1) return j;
  }
  return -1;
}

/**
 * The comparison operators, as written (`==` is SQLite's equality, `<=>` MySQL's null-safe one)
 * and the keyword `LIKE` upper-cased: the one list every detector compares with.
 *
 * @example
 * COMPARISON_OPERATORS.has("<=>"); // true
 */
export const COMPARISON_OPERATORS: ReadonlySet<string> = new Set([
  "=",
  "==",
  "<>",
  "!=",
  "<",
  ">",
  "<=",
  ">=",
  "<=>",
  "LIKE",
]);

/**
 * True for a comparison operator ({@link COMPARISON_OPERATORS}) or the keyword `LIKE`.
 *
 * @example
 * isComparisonToken(tokenize("<=")[0]); // true
 */
export function isComparisonToken(t: Token | undefined): boolean {
  return t !== undefined && COMPARISON_OPERATORS.has(t.kind === "keyword" ? t.upper : t.text);
}

/**
 * The literal a server fingerprint at `sig[k]` is compared with (`current_user = 'postgres'`,
 * `1 = @@servername`, `version() LIKE 'Post%'`), or undefined. Such a comparison asks the server
 * a yes/no question about itself (or, with a number, provokes a conversion error).
 *
 * @example
 * fingerprintComparison(ctx.sig, ctx.depth, k)?.text; // "'postgres'" for `current_user = 'postgres'`
 */
export function fingerprintComparison(
  sig: readonly Token[],
  depth: Int32Array,
  k: number,
): Token | undefined {
  if (!isFingerprintAt(sig, k)) return undefined;
  const end = sig[k + 1]?.text === "(" ? matchingParen(sig, depth, k + 1, 64) + 1 : k + 1;
  if (end <= 0) return undefined;
  const after = sig[end + 1];
  if (isComparisonToken(sig[end]) && (after?.kind === "string" || after?.kind === "number")) {
    return after;
  }
  const before = sig[k - 2];
  if (isComparisonToken(sig[k - 1]) && (before?.kind === "string" || before?.kind === "number")) {
    return before;
  }
  return undefined;
}
