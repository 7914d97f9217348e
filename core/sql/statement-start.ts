import type { SqlSyntaxError } from "../ports/sql-parser.js";
import type { SqlDialect } from "./dialects.js";
import { isSignificant, type Token } from "./token.js";

type StatementDialect = Exclude<SqlDialect, "generic">;

const words = (list: string): readonly string[] => list.split(/\s+/).filter((w) => w !== "");

/**
 * The words a statement can start with, per dialect. The multi-dialect parser reads a bare
 * expression as a statement (`SELEC * FRM t` is the column `SELEC` times `FRM` aliased `t`), so
 * the first word of each statement is checked against the dialect's statement verbs. The lists
 * err on the generous side: the parser still judges the rest of the statement.
 */
const STARTS: Record<StatementDialect, readonly string[]> = {
  postgresql: words(`
    SELECT WITH VALUES TABLE INSERT UPDATE DELETE MERGE CREATE ALTER DROP TRUNCATE COMMENT GRANT
    REVOKE BEGIN START COMMIT END ROLLBACK ABORT SAVEPOINT RELEASE PREPARE EXECUTE DEALLOCATE SET
    RESET SHOW EXPLAIN ANALYZE VACUUM COPY LOCK CALL DO DECLARE FETCH MOVE CLOSE LISTEN NOTIFY
    UNLISTEN DISCARD REASSIGN REFRESH REINDEX CLUSTER CHECKPOINT LOAD SECURITY IMPORT`),
  mysql: words(`
    SELECT WITH VALUES TABLE INSERT UPDATE DELETE REPLACE CREATE ALTER DROP RENAME TRUNCATE GRANT
    REVOKE BEGIN START COMMIT ROLLBACK SAVEPOINT RELEASE SET SHOW DESCRIBE DESC EXPLAIN ANALYZE
    OPTIMIZE CHECK CHECKSUM REPAIR USE LOCK UNLOCK CALL DO HANDLER LOAD PREPARE EXECUTE DEALLOCATE
    DECLARE FLUSH KILL RESET PURGE CHANGE INSTALL UNINSTALL XA SIGNAL RESIGNAL GET HELP SHUTDOWN
    RESTART CACHE BINLOG IMPORT CLONE STOP`),
  sqlite: words(`
    SELECT WITH VALUES INSERT REPLACE UPDATE DELETE CREATE ALTER DROP BEGIN COMMIT END ROLLBACK
    SAVEPOINT RELEASE PRAGMA ANALYZE VACUUM ATTACH DETACH REINDEX EXPLAIN`),
  sqlserver: words(`
    SELECT WITH INSERT UPDATE DELETE MERGE CREATE ALTER DROP TRUNCATE GRANT REVOKE DENY BEGIN COMMIT
    ROLLBACK SAVE SET USE EXEC EXECUTE DECLARE PRINT IF WHILE RETURN RAISERROR THROW WAITFOR BREAK
    CONTINUE GOTO OPEN FETCH CLOSE DEALLOCATE BULK BACKUP RESTORE DBCC KILL CHECKPOINT SHUTDOWN
    RECONFIGURE REVERT SETUSER UPDATETEXT WRITETEXT READTEXT ENABLE DISABLE END`),
  oracle: words(`
    SELECT WITH INSERT UPDATE DELETE MERGE CREATE ALTER DROP TRUNCATE RENAME COMMENT GRANT REVOKE
    COMMIT ROLLBACK SAVEPOINT SET LOCK EXPLAIN CALL BEGIN DECLARE ANALYZE AUDIT NOAUDIT PURGE
    FLASHBACK EXEC EXECUTE DESCRIBE DESC ASSOCIATE DISASSOCIATE`),
  snowflake: words(`
    SELECT WITH VALUES INSERT UPDATE DELETE MERGE CREATE ALTER DROP UNDROP TRUNCATE COMMENT GRANT
    REVOKE BEGIN START COMMIT ROLLBACK SET UNSET USE SHOW DESCRIBE DESC EXPLAIN CALL EXECUTE COPY
    PUT GET LIST LS REMOVE RM DECLARE`),
};

const STATEMENT_WORDS: Record<SqlDialect, ReadonlySet<string>> = {
  postgresql: new Set(STARTS.postgresql),
  mysql: new Set(STARTS.mysql),
  sqlite: new Set(STARTS.sqlite),
  sqlserver: new Set(STARTS.sqlserver),
  oracle: new Set(STARTS.oracle),
  snowflake: new Set(STARTS.snowflake),
  // `generic` accepts what any supported dialect accepts.
  generic: new Set(Object.values(STARTS).flat()),
};

/** Words after a statement-initial BEGIN that make it a transaction, not a block. */
const TRANSACTION_BEGIN = new Set([
  "TRAN", "TRANSACTION", "WORK", "DEFERRED", "IMMEDIATE", "EXCLUSIVE", "DISTRIBUTED", "ISOLATION",
  "READ", "NAME",
]); // prettier-ignore
/** Statement-initial words of procedural code, whose bodies hold `;` that do not end it. */
const BLOCK_START = new Set(["DECLARE", "IF", "WHILE", "LOOP", "REPEAT", "FOR", "CASE"]);
/** Objects whose CREATE/ALTER carries a procedural body. */
const ROUTINE = new Set(["PROCEDURE", "PROC", "FUNCTION", "TRIGGER", "PACKAGE", "EVENT", "TYPE"]);

/**
 * The first significant token of each statement of `tokens`: statements are split at `;`
 * outside parentheses, empty ones skipped, comments ignored. No block awareness: this is how the
 * multi-dialect parser splits too (it splits `BEGIN x; y; END` into three).
 *
 * @example
 * statementStarts(tokenize("SELECT 1; ; -- c\nFOO BAR")).map((t) => t.text); // ["SELECT", "FOO"]
 */
export function statementStarts(tokens: readonly Token[]): Token[] {
  const starts: Token[] = [];
  for (const statement of statements(tokens)) {
    const first = statement[0];
    if (first !== undefined) starts.push(first);
  }
  return starts;
}

/**
 * The first statement that does not start with a word that starts a statement in `dialect` (or
 * `(`), as a syntax error at that token (`unexpected SELEC`), or undefined. Checking stops at the
 * first procedural block (`BEGIN … END`, `DECLARE`, `IF`, a `CREATE PROCEDURE` body), where `;`
 * separates the block's own statements; the grammar judges those.
 *
 * @example
 * findNonStatement(tokenize("SELECT 1;\nFOO BAR"), "mysql");
 * // { line: 2, column: 1, reason: "unexpected FOO" }
 * findNonStatement(tokenize("PRINT 'x'"), "sqlserver"); // undefined
 */
export function findNonStatement(
  tokens: readonly Token[],
  dialect: SqlDialect,
): SqlSyntaxError | undefined {
  const allowed = STATEMENT_WORDS[dialect];
  for (const statement of statements(tokens)) {
    const first = statement[0] as Token;
    const word = first.kind === "keyword" || first.kind === "identifier";
    if (!(word && allowed.has(first.upper)) && first.text !== "(") {
      return unexpectedToken(first);
    }
    if (opensBlock(statement)) return undefined;
  }
  return undefined;
}

/**
 * True when `word` (any case) can start a statement in `dialect`.
 *
 * @example
 * isStatementWord("pragma", "sqlite"); // true
 * isStatementWord("SELEC", "generic"); // false
 */
export function isStatementWord(word: string, dialect: SqlDialect): boolean {
  return STATEMENT_WORDS[dialect].has(word.toUpperCase());
}

/**
 * A syntax error at `t` reading `unexpected X`, as PostgreSQL's reasons read: words bare (as
 * written), anything else quoted, long tokens cut.
 *
 * @example
 * unexpectedToken(tokenize("FOO")[0]); // { line: 1, column: 1, reason: "unexpected FOO" }
 * unexpectedToken(tokenize("1")[0]).reason; // 'unexpected "1"'
 */
export function unexpectedToken(t: Token): SqlSyntaxError {
  const text = t.text.length > 40 ? `${t.text.slice(0, 40)}…` : t.text;
  const shown = /^[\p{L}_][\p{L}\p{N}_$]*$/u.test(t.text) ? text : `"${text}"`;
  return { line: t.line, column: t.column, reason: `unexpected ${shown}` };
}

function opensBlock(statement: readonly Token[]): boolean {
  const first = statement[0] as Token;
  if (BLOCK_START.has(first.upper)) return true;
  if (first.upper === "BEGIN") {
    const next = statement[1];
    if (next !== undefined && !TRANSACTION_BEGIN.has(next.upper)) return true;
  }
  const routine = first.upper === "CREATE" || first.upper === "ALTER";
  for (let i = 1; i < statement.length; i++) {
    const t = statement[i] as Token;
    if (t.kind !== "keyword" && t.kind !== "identifier") continue;
    if (t.upper === "BEGIN") return true;
    if (routine && i < 8 && ROUTINE.has(t.upper)) return true;
  }
  return false;
}

/** The significant tokens of each non-empty statement (split at `;` outside parentheses). */
function* statements(tokens: readonly Token[]): Generator<Token[]> {
  let current: Token[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (!isSignificant(t)) continue;
    if (t.kind === "punctuation") {
      if (t.text === "(") depth++;
      else if (t.text === ")" && depth > 0) depth--;
      else if (t.text === ";" && depth === 0) {
        if (current.length > 0) yield current;
        current = [];
        continue;
      }
    }
    current.push(t);
  }
  if (current.length > 0) yield current;
}
