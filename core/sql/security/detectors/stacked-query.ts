import type { Token } from "../../token.js";
import type { Detector } from "../detector.js";
import { makeFinding } from "../patterns.js";
import type { ScanContext, StatementRange } from "../scan-context.js";
import { hasTruncation } from "../signals.js";

/** Statements that change data, schema or the server when stacked after a query. */
const DANGEROUS_VERBS: ReadonlySet<string> = new Set([
  "DROP", "DELETE", "TRUNCATE", "UPDATE", "INSERT", "ALTER", "CREATE", "EXEC", "EXECUTE", "GRANT",
  "REVOKE", "SHUTDOWN", "DECLARE", "RENAME", "REPLACE", "MERGE", "CALL", "COPY", "LOAD", "ATTACH",
  "BULK",
]); // prettier-ignore
/** Scopes of a `SET` that reconfigures the whole server (MySQL), not the session. */
const SERVER_SCOPES: ReadonlySet<string> = new Set([
  "GLOBAL",
  "PERSIST",
  "PERSIST_ONLY",
  "@@GLOBAL",
]);

/**
 * True when the statement is an application query (a SELECT reading data), not a utility call
 * such as pg_dump's `SELECT pg_catalog.set_config(…)`.
 */
function isQuery(sig: readonly Token[], s: StatementRange): boolean {
  if (sig[s.from]?.upper !== "SELECT") return false;
  let j = s.from + 1;
  while (
    j < s.to &&
    (sig[j]?.kind === "identifier" || sig[j]?.kind === "quoted_identifier") &&
    sig[j + 1]?.text === "."
  )
    j += 2;
  return !(sig[j]?.kind === "identifier" && sig[j + 1]?.text === "(");
}

/**
 * True when the statement ends where an injected value ends: its filter's last token is a literal
 * (`… WHERE id = 1`, `… WHERE name = 'x'`), the value a payload closes before its `;`. A script's
 * `SELECT a FROM t;` or `SELECT '';` before its `CREATE TABLE` is no injection point.
 */
function endsInFilterValue(ctx: ScanContext, s: StatementRange): boolean {
  const { sig, depth } = ctx;
  const last = sig[s.to - 1];
  if (last === undefined || (last.kind !== "string" && last.kind !== "number")) return false;
  for (let j = s.from; j < s.to; j++) {
    const word = (sig[j] as Token).upper;
    if ((word === "WHERE" || word === "HAVING") && depth[j] === depth[s.from]) return true;
  }
  return false;
}

/**
 * Stacked queries: a second statement that changes data or schema appended to an application
 * query on the same line (`SELECT * FROM users; DROP TABLE users`) or after a query whose filter
 * ends in a value (`SELECT … WHERE id = 1;` with `DROP TABLE users` on the next line), or any stacked statement when the
 * input shows truncation (`'; DELETE FROM logs; --'`), or a stacked `SHUTDOWN`. Multi-statement
 * migrations and scripts (CREATE; INSERT; ALTER; …, also after a first `SELECT a FROM t;` with
 * the next statement on its own line) are not reported.
 *
 * @example
 * scanSql("SELECT 1; DROP TABLE users").findings[0]?.description; // "Pattern detected: ; DROP"
 */
export const stackedQueryDetector: Detector = {
  family: "stacked-query",
  patterns: ["STACKED_QUERY"],
  detect(ctx, emit) {
    const { sig, statements } = ctx;
    const first = statements[0];
    if (first === undefined || statements.length < 2) return;
    const query = isQuery(sig, first);
    const filterValue = query && endsInFilterValue(ctx, first);
    const truncation = hasTruncation(ctx);
    for (let s = 1; s < statements.length; s++) {
      const statement = statements[s] as StatementRange;
      const verb = sig[statement.from] as Token;
      // `SET GLOBAL general_log = 'ON'` turns on server-wide settings (issue 8).
      const serverSet =
        verb.upper === "SET" &&
        SERVER_SCOPES.has((sig[statement.from + 1]?.text ?? "").toUpperCase());
      const dangerous =
        verb.kind === "keyword" || verb.kind === "identifier"
          ? DANGEROUS_VERBS.has(verb.upper) || serverSet
          : false;
      // A script puts its next statement on a new line; a payload goes on the query's line
      // (`… WHERE id = 1; DROP TABLE users`), unless the query ends where a payload starts.
      const sameLine = verb.line === sig[statement.from - 1]?.line;
      if (
        (dangerous && ((query && (sameLine || filterValue)) || truncation)) ||
        verb.upper === "SHUTDOWN" ||
        (truncation && verb.upper === "SELECT")
      ) {
        const shown = serverSet ? `${verb.text} ${sig[statement.from + 1]?.text ?? ""}` : verb.text;
        emit(makeFinding("STACKED_QUERY", "CRITICAL", `Pattern detected: ; ${shown}`));
      }
    }
  },
};
