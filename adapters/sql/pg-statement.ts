import { ColumnScope } from "./column-scope.js";
import { LazyStatement } from "./lazy-statement.js";
import type { MetadataCollector, StatementNames } from "./metadata-collector.js";
import type { PgNode } from "./pg-json-outline.js";
import { isNameCharAt, readNameParts, type SourceText } from "./source-text.js";

/** Node types whose kind is not just the type name without `Stmt`. */
const KIND_BY_NODE: Record<string, string> = {
  InsertStmt: "Insert",
  UpdateStmt: "Update",
  DeleteStmt: "Delete",
  MergeStmt: "Merge",
  CreateStmt: "CreateTable",
  IndexStmt: "CreateIndex",
  ViewStmt: "CreateView",
  TruncateStmt: "Truncate",
  VariableShowStmt: "Show",
  ExplainStmt: "Describe",
  RefreshMatViewStmt: "RefreshMaterializedView",
  TransactionStmt: "Transaction",
  VariableSetStmt: "Set",
  CreateSeqStmt: "CreateSequence",
  CreateTrigStmt: "CreateTrigger",
  CreatedbStmt: "CreateDatabase",
  CreateFunctionStmt: "CreateFunction",
  CreateSchemaStmt: "CreateSchema",
  RenameStmt: "Alter",
  ExecuteStmt: "Execute",
};

/**
 * The neutral kind of one libpg-query statement node, e.g. `Select`, `SetOperation`,
 * `CreateMaterializedView`; unknown node types drop their `Stmt` suffix (`CopyStmt` → `Copy`).
 *
 * @example
 * pgStatementKind({ SelectStmt: { op: "SETOP_UNION" } }); // "SetOperation"
 */
export function pgStatementKind(stmt: PgNode): string {
  const type = Object.keys(stmt)[0] ?? "Unknown";
  const body = (stmt[type] ?? {}) as PgNode;
  switch (type) {
    case "SelectStmt":
      return body["op"] === undefined || body["op"] === "SETOP_NONE" ? "Select" : "SetOperation";
    case "CreateTableAsStmt":
      return body["objtype"] === "OBJECT_MATVIEW" ? "CreateMaterializedView" : "CreateTable";
    case "GrantStmt":
      return body["is_grant"] === true ? "Grant" : "Revoke";
    default:
      break;
  }
  const mapped = KIND_BY_NODE[type];
  if (mapped !== undefined) return mapped;
  if (type.startsWith("Alter")) return "Alter";
  if (type.startsWith("Drop")) return "Drop";
  return type.endsWith("Stmt") ? type.slice(0, -4) : type;
}

/**
 * One statement of a libpg-query parse in the neutral model. The kind is known up front (from
 * the outline of the tree, see `outlinePgStatements`); the statement's node is asked for, and its
 * name lists walked, only when a name list is first read, so validation and `parse_sql` never pay
 * for building or walking the tree.
 *
 * @example
 * const s = new PgStatement("Select", () => JSON.parse(json).stmts[0].stmt, new SourceText(sql));
 * s.kind; // "Select"
 * s.tables; // ["users"] (tree built and walked now, once)
 */
export class PgStatement extends LazyStatement {
  /** `names`, when given, are the statement's name lists already read (`readPgStatements`). */
  constructor(
    override readonly kind: string,
    private readonly stmt: () => PgNode,
    private readonly source: SourceText,
    names?: StatementNames,
  ) {
    super(names);
  }

  protected override collectInto(out: MetadataCollector): void {
    visit(this.stmt(), { out, source: this.source, scope: new ColumnScope() }, "", 0);
  }
}

/** What the walk carries down the tree. */
export interface WalkState {
  readonly out: MetadataCollector;
  readonly source: SourceText;
  /** The tables of the query block being walked (columns resolve against them). */
  readonly scope: ColumnScope;
}

/** Keys whose value is a query block with its own FROM list (set operations' arms unwrapped). */
export const BLOCK_KEYS: ReadonlySet<string> = new Set([
  "SelectStmt",
  "InsertStmt",
  "UpdateStmt",
  "DeleteStmt",
  "larg",
  "rarg",
]);

/**
 * The scope of a query block: its target relation, then its FROM (or USING) list.
 *
 * @example
 * blockScope({ fromClause: [{ RangeVar: { relname: "users", alias: { aliasname: "u" } } }] }, new ColumnScope()).tableOf("u");
 * // "users"
 */
export function blockScope(body: PgNode, parent: ColumnScope): ColumnScope {
  const scope = new ColumnScope(parent);
  const relation = body["relation"] as PgNode | undefined;
  if (relation !== undefined && typeof relation["relname"] === "string") {
    addFromItem({ RangeVar: relation }, scope);
  }
  for (const list of [body["fromClause"], body["usingClause"]]) {
    if (Array.isArray(list)) for (const item of list as PgNode[]) addFromItem(item, scope);
  }
  return scope;
}

function addFromItem(root: PgNode, scope: ColumnScope): void {
  // A stack, not recursion: a long JOIN chain nests as deep as it is long (issue 26).
  const pending: PgNode[] = [root];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const range = item["RangeVar"] as PgNode | undefined;
    if (range !== undefined) {
      const alias = (range["alias"] as PgNode | undefined)?.["aliasname"];
      scope.addTable(
        folded(range, ["catalogname", "schemaname", "relname"]),
        typeof alias === "string" ? alias : "",
      );
      continue;
    }
    const join = item["JoinExpr"] as PgNode | undefined;
    if (join !== undefined) {
      // Right side pushed first, so the left side's tables come first.
      for (const side of [join["rarg"], join["larg"]]) {
        if (side !== null && typeof side === "object") pending.push(side as PgNode);
      }
      continue;
    }
    const derived = (item["RangeSubselect"] ?? item["RangeFunction"]) as PgNode | undefined;
    const alias = (derived?.["alias"] as PgNode | undefined)?.["aliasname"];
    if (typeof alias === "string") scope.addDerived(alias);
  }
}

/** Nodes whose `targetList` holds `SET column = value` targets rather than select items. */
export const SET_TARGET_OWNERS: ReadonlySet<string> = new Set([
  "UpdateStmt",
  "OnConflictClause",
  "MergeWhenClause",
]);

/** One step of the walk: a node to descend into, or (with `key`) a field value to visit first. */
interface WalkStep {
  readonly node: unknown;
  readonly state: WalkState;
  /** The nearest enclosing node type (`SelectStmt`, `UpdateStmt`, …). */
  readonly owner: string;
  /** The field holding `node` in its parent object, when `node` is an object field's value. */
  readonly key?: string;
}

/**
 * How deep {@link visit} recurses before the rest of a subtree is walked with an explicit stack
 * ({@link walk}); each level is two small frames, far below Node's stack.
 */
const MAX_RECURSION = 200;

/**
 * Visits the tree depth first, each field before the fields after it (first-seen order): by
 * recursion, which builds nothing per node (the stack walk allocated a step object per field and
 * a key array per object: half of extract_metadata's walk), down to {@link MAX_RECURSION} levels;
 * deeper subtrees (a chain of thousands of JOINs nests as deep as it is long, issue 26) go to
 * the explicit-stack {@link walk}, which visits in the same order.
 */
function visit(node: unknown, state: WalkState, owner: string, depth: number): void {
  if (depth > MAX_RECURSION) {
    walk(node, state, owner);
    return;
  }
  if (Array.isArray(node)) {
    for (const item of node) {
      if (item !== null && typeof item === "object") visit(item, state, owner, depth + 1);
    }
    return;
  }
  const obj = node as PgNode;
  for (const key in obj) {
    const value = obj[key];
    if (value === null || typeof value !== "object") continue;
    visitField(key, value as PgNode, state, owner);
    const inner = stateFor(key, value as PgNode, state, owner);
    visit(value, inner, isNodeType(key) ? key : owner, depth + 1);
  }
}

/** The state a field's value is walked with: a query block opens its own scope. */
function stateFor(key: string, value: PgNode, state: WalkState, owner: string): WalkState {
  // A set operation's arms are query blocks; a join's sides (also larg/rarg) are not.
  return BLOCK_KEYS.has(key) && owner !== "JoinExpr"
    ? { ...state, scope: blockScope(value, state.scope) }
    : state;
}

/** Node types are capitalised (`SelectStmt`); fields are not (`targetList`). */
function isNodeType(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 65 && first <= 90;
}

/**
 * The same visit as {@link visit} with an explicit stack, for subtrees too deep to recurse into:
 * a recursive walk overflowed the call stack on a 128 KiB join chain (issue 26).
 */
function walk(root: unknown, rootState: WalkState, rootOwner: string): void {
  const stack: WalkStep[] = [{ node: root, state: rootState, owner: rootOwner }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    let { state, owner } = step;
    const { node, key } = step;
    if (key !== undefined) {
      visitField(key, node as PgNode, state, owner);
      state = stateFor(key, node as PgNode, state, owner);
      if (isNodeType(key)) owner = key;
    }
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], state, owner });
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    const obj = node as PgNode;
    const keys = Object.keys(obj);
    for (let i = keys.length - 1; i >= 0; i--) {
      const field = keys[i] as string;
      const value = obj[field];
      if (value !== null && typeof value === "object") {
        stack.push({ node: value, state, owner, key: field });
      }
    }
  }
}

/**
 * What a field tells the collector before its value is walked: the one place the walk acts on a
 * node (`ColumnRef`, `FuncCall`, `RangeVar`, …); `owner` is the nearest enclosing node type.
 *
 * @example
 * visitField("RangeVar", { relname: "users", location: 14 }, state, "SelectStmt"); // out.table(["users"], 14)
 */
export function visitField(key: string, body: PgNode, state: WalkState, owner: string): void {
  const { out, source } = state;
  switch (key) {
    case "RangeVar":
      rangeVar(body, out, source);
      break;
    case "ColumnRef":
      columnRef(body, state);
      break;
    case "FuncCall":
      funcCall(body, out, source);
      break;
    case "CoalesceExpr":
    case "MinMaxExpr":
      keywordFunction(body, out, source);
      break;
    case "A_Expr":
      if (body["kind"] === "AEXPR_NULLIF") keywordFunction(body, out, source);
      break;
    case "CommonTableExpr":
      if (typeof body["ctename"] === "string") out.cte(body["ctename"]);
      break;
    case "cols":
      setTargets(body, state);
      break;
    case "targetList":
      if (SET_TARGET_OWNERS.has(owner)) setTargets(body, state);
      break;
    case "rel":
    case "relation":
    case "view":
      // Bare RangeVar fields (INSERT/UPDATE targets, CREATE ... AS) come without the wrapper.
      if (typeof body["relname"] === "string") rangeVar(body, out, source);
      break;
    default:
      break;
  }
}

/** INSERT column lists and UPDATE SET targets: `ResTarget` nodes whose `name` is a column. */
function setTargets(list: PgNode, { out, source, scope }: WalkState): void {
  if (!Array.isArray(list)) return;
  for (const item of list as PgNode[]) {
    const target = item["ResTarget"] as PgNode | undefined;
    const name = target?.["name"];
    if (target === undefined || typeof name !== "string") continue;
    const at = location(target, source);
    const [written] = at >= 0 ? readNameParts(source.text, at, 1) : [];
    out.column(scope.target(), written ?? name, at);
  }
}

function location(body: PgNode, source: SourceText): number {
  const at = body["location"];
  return typeof at === "number" && at >= 0 ? source.indexOfByte(at) : -1;
}

function folded(body: PgNode, keys: readonly string[]): string[] {
  const parts: string[] = [];
  for (const key of keys) {
    const part = body[key];
    if (typeof part === "string" && part !== "") parts.push(part);
  }
  return parts;
}

function rangeVar(body: PgNode, out: MetadataCollector, source: SourceText): void {
  const parts = folded(body, ["catalogname", "schemaname", "relname"]);
  const at = location(body, source);
  const written = at >= 0 ? readNameParts(source.text, at, parts.length) : [];
  out.table(written.length === parts.length ? written : parts, at);
}

function stringValues(list: unknown): (string | undefined)[] {
  if (!Array.isArray(list)) return [];
  return list.map((item) => {
    const str = (item as PgNode)["String"] as PgNode | undefined;
    return typeof str?.["sval"] === "string" ? str["sval"] : undefined;
  });
}

/** Unquoted names that are pseudo-columns, not columns (Oracle's row counter). */
const PSEUDO_COLUMNS = new Set(["rownum"]);

function columnRef(body: PgNode, state: WalkState): void {
  columnRefNames(stringValues(body["fields"]), body, state);
}

/**
 * A column reference from its `fields` (the name parts, undefined for `*`) and the node holding
 * its `location`.
 *
 * @example
 * columnRefNames(["u", "id"], { location: 7 }, state); // out.column(<u's table>, "id", 7)
 */
export function columnRefNames(
  fields: readonly (string | undefined)[],
  body: PgNode,
  { out, source, scope }: WalkState,
): void {
  const last = fields[fields.length - 1];
  if (last === undefined) return; // `*` or `t.*`
  const at = location(body, source);
  // `@n` is a T-SQL variable; PostgreSQL reads it as its `@` (absolute value) operator on `n`.
  if (at > 0 && source.text.charCodeAt(at - 1) === 64) return;
  const written = at >= 0 ? readNameParts(source.text, at, fields.length) : [];
  const parts = written.length === fields.length ? written : (fields as readonly string[]);
  if (fields.length === 1 && PSEUDO_COLUMNS.has(last) && source.text.charAt(at) !== '"') return;
  const table = scope.tableOf(parts.slice(0, -1).join("."));
  out.column(table, parts[parts.length - 1] ?? last, at);
}

function funcCall(body: PgNode, out: MetadataCollector, source: SourceText): void {
  const names = stringValues(body["funcname"]).filter((n): n is string => n !== undefined);
  funcCallNames(names, body, out, source);
}

/**
 * A function call from its name parts and the node holding its `funcformat` and `location`.
 *
 * @example
 * funcCallNames(["count"], { funcformat: "COERCE_EXPLICIT_CALL", location: 21 }, out, source);
 */
export function funcCallNames(
  names: readonly string[],
  body: PgNode,
  out: MetadataCollector,
  source: SourceText,
): void {
  const at = location(body, source);
  // SQL-syntax calls (TRIM(x), EXTRACT(y FROM d)) are stored as pg_catalog.btrim etc.: only the
  // keyword in the text is the name the user wrote.
  const count = body["funcformat"] === "COERCE_SQL_SYNTAX" ? 1 : names.length;
  const written = at >= 0 ? readNameParts(source.text, at, count) : [];
  // `ts AT TIME ZONE 'UTC'` and `AT LOCAL` are stored as calls of timezone(); written without
  // parentheses they are operators, not function calls.
  if (count === 1 && written.length === 1 && !calledWithParens(source.text, at)) return;
  const name = written.length === count ? written.join(".") : names.join(".");
  out.func(name, at);
}

function keywordFunction(body: PgNode, out: MetadataCollector, source: SourceText): void {
  const at = location(body, source);
  if (at < 0) return;
  const [word] = readNameParts(source.text, at, 1);
  if (word !== undefined) out.func(word, at);
}

/** True when the word at string index `at` is followed (after blanks) by `(`. */
function calledWithParens(text: string, at: number): boolean {
  let i = at;
  while (i < text.length && isNameCharAt(text, i)) i++;
  while (i < text.length && /\s/.test(text.charAt(i))) i++;
  return text.charAt(i) === "(";
}
