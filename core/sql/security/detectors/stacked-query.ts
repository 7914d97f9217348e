import type { Token } from "../../token.js";
import type { Detector } from "../detector.js";
import { makeFinding } from "../patterns.js";
import type { StatementRange } from "../scan-context.js";
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
 * Stacked queries: a second statement that changes data or schema appended to an application
 * query (`SELECT … WHERE id = 1; DROP TABLE users`), or any stacked statement when the input
 * shows truncation (`'; DELETE FROM logs; --'`), or a stacked `SHUTDOWN`. Multi-statement
 * migrations and scripts (CREATE; INSERT; ALTER; …) are not reported.
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
      if (
        (dangerous && (query || truncation)) ||
        verb.upper === "SHUTDOWN" ||
        (truncation && verb.upper === "SELECT")
      ) {
        const shown = serverSet ? `${verb.text} ${sig[statement.from + 1]?.text ?? ""}` : verb.text;
        emit(makeFinding("STACKED_QUERY", "CRITICAL", `Pattern detected: ; ${shown}`));
      }
    }
  },
};
