import type { SqlDialect } from "../../core/sql/dialects.js";
import type {
  ParsedStatement,
  SqlParseOptions,
  SqlParseResult,
  SqlParser,
  SqlSyntaxError,
} from "../../core/ports/sql-parser.js";
import { onePgStatementKind } from "./pg-json-kinds.js";
import { readPgStatements, type PgStatementNames } from "./pg-json-names.js";
import { outlinePgStatements, type PgNode } from "./pg-json-outline.js";
import { PgQueryWasm, type PgParseError } from "./pg-query-wasm.js";
import { PgStatement, pgStatementKind } from "./pg-statement.js";
import { SourceText } from "./source-text.js";

/** The reason of an empty statement list, shared by every parser. */
export const EMPTY_INPUT_REASON = "empty input: no SQL statement found";

/**
 * True when `sql` is empty or only whitespace: the one text without statements that is an
 * error. Comments and semicolons alone are a valid script of no statements (issue 25: six
 * dialects accepted comment-only text, PostgreSQL and parse_sql refused it).
 *
 * @example
 * isBlank(" \n"); // true
 * isBlank("-- nothing yet"); // false: parses to no statements
 */
export function isBlank(sql: string): boolean {
  return !/\S/.test(sql);
}

/**
 * PostgreSQL's own parser (libpg-query, WASM): exact for `postgresql`, and the first grammar tried
 * for `generic`. The dialect argument is ignored: this parser only speaks PostgreSQL. The tree
 * stays JSON text until a statement's name lists are read (`parse`), or is not read at all
 * (`check`); see {@link PgQueryWasm}.
 *
 * @example
 * const parser = new LibpgQuerySqlParser();
 * await parser.load();
 * parser.parse("SELECT FROM users WHERE", "postgresql");
 * // { ok: false, error: { line: 1, column: 24, reason: "unexpected end of input" } }
 */
export class LibpgQuerySqlParser implements SqlParser {
  private wasm: PgQueryWasm | undefined;
  private loading: Promise<void> | undefined;

  /** Loads the WASM module once; later calls return at once. */
  async load(): Promise<void> {
    if (this.wasm !== undefined) return;
    this.loading ??= PgQueryWasm.load().then((wasm) => {
      this.wasm = wasm;
    });
    await this.loading;
  }

  /** True once {@link load} has finished. */
  get isLoaded(): boolean {
    return this.wasm !== undefined;
  }

  /**
   * With `options.names` the kinds and name lists are read in one pass over the tree's JSON text
   * without building the tree (`readPgStatements`; `JSON.parse` and the walk when that reader
   * does not know the layout); without, the kinds come from a shallow outline of the JSON text
   * and the whole tree is read only if a name list is.
   */
  parse(
    sql: string,
    _dialect: SqlDialect = "postgresql",
    options?: SqlParseOptions,
  ): SqlParseResult {
    const text = withoutByteOrderMark(sql);
    const source = new SourceText(text);
    if (options?.names !== true) return this.parseKinds(text, source);
    const raw = this.ready().parse(text);
    if (!raw.ok) return { ok: false, error: toSyntaxError(raw, source) };
    const read = readPgStatements(raw.json, source);
    if (read !== undefined) return statementsOf(read, source, text);
    // A layout the one-pass reader does not know: the tree read whole, and walked.
    const tree = fullStatements(raw.json);
    return statementsOf(
      tree.map((stmt) => (stmt === undefined ? undefined : pgStatementKind(stmt))),
      source,
      text,
      () => tree,
    );
  }

  /**
   * The statement kinds (what parse_sql reads): of one statement from the ends of the tree's
   * JSON text when it can be told there (`onePgStatementKind`), else from a shallow outline of
   * it; the tree is read whole and walked only if a statement's name list is read.
   */
  private parseKinds(text: string, source: SourceText): SqlParseResult {
    const raw = this.ready().parse(text);
    if (!raw.ok) return { ok: false, error: toSyntaxError(raw, source) };
    const one = onePgStatementKind(raw.json);
    const kinds =
      one !== undefined
        ? [one]
        : outlinePgStatements(raw.json).map((stmt) =>
            stmt === undefined ? undefined : pgStatementKind(stmt),
          );
    let tree: (PgNode | undefined)[] | undefined;
    return statementsOf(kinds, source, text, () => (tree ??= fullStatements(raw.json)));
  }

  /**
   * The syntax error {@link parse} would answer, or undefined when it would succeed, without
   * reading the tree (what validation needs).
   */
  check(sql: string, _dialect: SqlDialect = "postgresql"): SqlSyntaxError | undefined {
    const text = withoutByteOrderMark(sql);
    const raw = this.ready().check(text);
    if (!raw.ok) return toSyntaxError(raw, new SourceText(text));
    return raw.empty && isBlank(text)
      ? { line: 1, column: 1, reason: EMPTY_INPUT_REASON }
      : undefined;
  }

  private ready(): PgQueryWasm {
    if (this.wasm === undefined) throw new Error("LibpgQuerySqlParser used before load()");
    return this.wasm;
  }
}

/**
 * The statements of a parse: each entry's kind, with its names when already read
 * (`readPgStatements`), else walked from `tree()` when first read; `undefined` entries (no
 * statement) are left out.
 */
function statementsOf(
  entries: readonly (PgStatementNames | string | undefined)[],
  source: SourceText,
  text: string,
  tree: () => readonly (PgNode | undefined)[] = NO_TREE,
): SqlParseResult {
  const statements: ParsedStatement[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry === undefined) continue;
    statements.push(
      typeof entry === "string"
        ? new PgStatement(entry, () => tree()[i] ?? {}, source)
        : new PgStatement(entry.kind, NO_NODE, source, entry.names),
    );
  }
  if (statements.length === 0 && isBlank(text)) {
    return { ok: false, error: { line: 1, column: 1, reason: EMPTY_INPUT_REASON } };
  }
  return { ok: true, statements };
}

/** The node of a statement whose names are already read (never asked for). */
const NO_NODE = (): PgNode => ({});
const NO_TREE = (): (PgNode | undefined)[] => [];

/** PostgreSQL rejects a byte-order mark; a space keeps every string index where it was. */
function withoutByteOrderMark(sql: string): string {
  return sql.charCodeAt(0) === 0xfeff ? ` ${sql.slice(1)}` : sql;
}

function fullStatements(json: string): (PgNode | undefined)[] {
  const tree = JSON.parse(json) as { stmts?: { stmt?: PgNode }[] };
  return (tree.stmts ?? []).map((entry) => entry.stmt);
}

function toSyntaxError(error: PgParseError, source: SourceText): SqlSyntaxError {
  const { line, column } = source.position(source.indexOfCodePoint(error.cursor));
  return { line, column, reason: cleanPgMessage(error.message) };
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
