import { loadModule, parseSync } from "libpg-query";
import type { SqlDialect } from "../../core/sql/dialects.js";
import type { ParsedStatement, SqlParseResult, SqlParser } from "../../core/ports/sql-parser.js";
import { PgStatement } from "./pg-statement.js";
import { SourceText } from "./source-text.js";

/** The error libpg-query throws for bad SQL (its type is not exported as a value we can rely on). */
interface PgSqlError {
  readonly message: string;
  readonly sqlDetails?: { readonly cursorPosition?: number };
}

/** The reason of an empty statement list, shared by every parser. */
export const EMPTY_INPUT_REASON = "empty input: no SQL statement found";

/**
 * PostgreSQL's own parser (libpg-query, WASM): exact for `postgresql`, and the first grammar tried
 * for `generic`. The dialect argument is ignored: this parser only speaks PostgreSQL.
 *
 * @example
 * const parser = new LibpgQuerySqlParser();
 * await parser.load();
 * parser.parse("SELECT FROM users WHERE", "postgresql");
 * // { ok: false, error: { line: 1, column: 24, reason: "unexpected end of input" } }
 */
export class LibpgQuerySqlParser implements SqlParser {
  private loaded = false;
  private loading: Promise<void> | undefined;

  /** Loads the WASM module once; later calls return at once. */
  async load(): Promise<void> {
    if (this.loaded) return;
    this.loading ??= loadModule().then(() => {
      this.loaded = true;
    });
    await this.loading;
  }

  /** True once {@link load} has finished. */
  get isLoaded(): boolean {
    return this.loaded;
  }

  parse(sql: string, _dialect: SqlDialect = "postgresql"): SqlParseResult {
    if (!this.loaded) throw new Error("LibpgQuerySqlParser.parse called before load()");
    // PostgreSQL rejects a byte-order mark; a space keeps every string index where it was.
    const text = sql.charCodeAt(0) === 0xfeff ? ` ${sql.slice(1)}` : sql;
    const source = new SourceText(text);
    let tree: { stmts?: { stmt?: Record<string, unknown> }[] };
    try {
      tree = parseSync(text) as typeof tree;
    } catch (error) {
      return { ok: false, error: toSyntaxError(error, source) };
    }
    const statements: ParsedStatement[] = [];
    for (const raw of tree.stmts ?? []) {
      if (raw.stmt !== undefined) statements.push(new PgStatement(raw.stmt, source));
    }
    if (statements.length === 0) {
      return { ok: false, error: { line: 1, column: 1, reason: EMPTY_INPUT_REASON } };
    }
    return { ok: true, statements };
  }
}

function toSyntaxError(error: unknown, source: SourceText) {
  const pgError = error as PgSqlError;
  if (typeof pgError?.message !== "string") throw error;
  const cursor = pgError.sqlDetails?.cursorPosition;
  if (cursor === undefined) {
    if (/cannot be empty/i.test(pgError.message)) {
      return { line: 1, column: 1, reason: EMPTY_INPUT_REASON };
    }
    // Not a syntax error with a position: a failure of the WASM module itself.
    throw error;
  }
  const { line, column } = source.position(source.indexOfCodePoint(cursor));
  return { line, column, reason: cleanPgMessage(pgError.message) };
}

/**
 * PostgreSQL's messages made readable without the position (which the caller prints):
 * `syntax error at or near "FROM"` → `unexpected FROM`.
 *
 * @example
 * cleanPgMessage('syntax error at end of input'); // "unexpected end of input"
 */
export function cleanPgMessage(message: string): string {
  const near = /^syntax error at or near "(.*)"$/s.exec(message);
  if (near) {
    const token = near[1] ?? "";
    return /^[\p{L}_][\p{L}\p{N}_$]*$/u.test(token)
      ? `unexpected ${token}`
      : `unexpected "${token}"`;
  }
  if (message === "syntax error at end of input") return "unexpected end of input";
  const cut = message.indexOf(" at or near ");
  return cut > 0 ? message.slice(0, cut) : message;
}
