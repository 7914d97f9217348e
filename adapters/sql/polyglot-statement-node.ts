/**
 * Which top-level nodes of a polyglot parse are statements. Polyglot parses a bare expression as
 * a statement (`SELEC * FRM t` → `{ alias: … }`, `1 + 1` → `{ add: … }`, `FOO` → `{ column: … }`),
 * while its own validate-only mode rejects exactly those. An allow-list, not a deny-list: the
 * `Expression` union has hundreds of expression variants and few statements.
 */

/** Top-level keys of polyglot's `Expression` union that are statements. */
const STATEMENT_KEYS: ReadonlySet<string> = new Set(
  `select union intersect except values pipe_operator insert update delete merge copy put
  try_catch create_table drop_table undrop alter_table split_table flashback_table create_index
  drop_index create_view drop_view alter_view alter_index truncate truncate_table use cache uncache
  load_data pragma grant revoke comment set_statement create_schema drop_schema drop_namespace
  create_database drop_database create_function drop_function create_procedure drop_procedure
  create_sequence create_synonym drop_sequence alter_sequence create_trigger drop_trigger
  create_type drop_type describe show command kill prepare execute create_task raw refresh
  locking_statement attach detach install summarize declare transaction commit rollback
  alter_session analyze return_stmt multitable_inserts`
    .split(/\s+/)
    .filter((k) => k !== ""),
);

/** Wrappers whose `this` is the statement: `(SELECT 1)` is `{ subquery: { this: select } }`. */
const WRAPPERS: ReadonlySet<string> = new Set(["paren", "subquery"]);

/**
 * True when a top-level node of a polyglot parse is a statement rather than an expression.
 *
 * @example
 * isPolyglotStatementNode({ select: {} }); // true
 * isPolyglotStatementNode({ alias: {} }); // false: `SELEC * FRM t`
 * isPolyglotStatementNode({ paren: { this: { add: {} } } }); // false: `(1 + 1)`
 */
export function isPolyglotStatementNode(node: Record<string, unknown>): boolean {
  let current: Record<string, unknown> = node;
  // Wrappers nest (`((SELECT 1))`); the depth is bounded by the parser's own nesting limit.
  for (;;) {
    const key = Object.keys(current)[0];
    if (key === undefined) return false;
    if (STATEMENT_KEYS.has(key)) return true;
    if (!WRAPPERS.has(key)) return false;
    const inner = (current[key] as Record<string, unknown> | null)?.["this"];
    if (inner === null || typeof inner !== "object") return false;
    current = inner as Record<string, unknown>;
  }
}
