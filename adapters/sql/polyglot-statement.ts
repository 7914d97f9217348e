import { ColumnScope } from "./column-scope.js";
import { LazyStatement } from "./lazy-statement.js";
import type { MetadataCollector } from "./metadata-collector.js";
import {
  FUNCTION_ALIASES,
  normaliseFunctionName,
  POLYGLOT_FUNCTION_KEYS,
  type CallSite,
} from "./polyglot-functions.js";

/** A node of polyglot's JSON tree: an externally tagged enum (`{ select: {...} }`) or a struct. */
type PgNode = Record<string, unknown>;

/** Top-level statement keys whose kind is not their PascalCase name. */
const KIND_BY_KEY: Record<string, string> = {
  union: "SetOperation",
  intersect: "SetOperation",
  except: "SetOperation",
  truncate_table: "Truncate",
  set_statement: "Set",
  refresh: "RefreshMaterializedView",
  command: "Command",
  // Oracle and Snowflake `INSERT ALL|FIRST … SELECT`: one INSERT into several tables.
  multitable_inserts: "Insert",
};

/**
 * The neutral kind of one polyglot statement node.
 *
 * @example
 * polyglotStatementKind({ insert: { is_replace: true } }); // "Replace"
 */
export function polyglotStatementKind(node: PgNode): string {
  const key = Object.keys(node)[0] ?? "unknown";
  const body = (node[key] ?? {}) as PgNode;
  if (key === "paren" || key === "subquery") {
    const inner = body["this"];
    if (inner !== null && typeof inner === "object") return polyglotStatementKind(inner as PgNode);
  }
  if (key === "insert" && body["is_replace"] === true) return "Replace";
  if (key === "create_view" && body["materialized"] === true) return "CreateMaterializedView";
  const mapped = KIND_BY_KEY[key];
  if (mapped !== undefined) return mapped;
  if (key.startsWith("drop_")) return "Drop";
  if (key.startsWith("alter_")) return "Alter";
  return key
    .split("_")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/**
 * One statement of a polyglot parse in the neutral model; names are walked on first read.
 * Polyglot drops the spelling of built-in functions (`{ upper: … }`), so their names are
 * recovered from the call sites in the text.
 *
 * @example
 * const s = new PolyglotStatement(parse(sql, "tsql").ast[0], () => findCallSites(sql));
 * s.functions; // ["UPPER"] for `SELECT UPPER(name) FROM t`
 */
export class PolyglotStatement extends LazyStatement {
  override readonly kind: string;

  constructor(
    private readonly node: PgNode,
    private readonly sites: () => readonly CallSite[],
  ) {
    super();
    this.kind = polyglotStatementKind(node);
  }

  protected override collectInto(out: MetadataCollector): void {
    new Walker(out, this.sites).walk(this.node);
  }
}

/** Variants that are query blocks with their own tables (set operations hold two of them). */
const BLOCK_KEYS = new Set(["select", "insert", "update", "delete"]);
/** Unquoted names that are pseudo-columns, not columns (Oracle's row counter). */
const PSEUDO_COLUMNS = new Set(["ROWNUM"]);

/** The scope of a query block: its target table, then its FROM list and joins. */
function blockScope(key: string, body: PgNode, parent: ColumnScope): ColumnScope {
  const scope = new ColumnScope(parent);
  if (key !== "select") {
    addFromItem({ table: body["table"] }, scope);
    return scope;
  }
  const from = (body["from"] as PgNode | null)?.["expressions"];
  if (Array.isArray(from)) for (const item of from as PgNode[]) addFromItem(item, scope);
  const joins = body["joins"];
  if (Array.isArray(joins)) {
    for (const join of joins as PgNode[]) addFromItem(join["this"] as PgNode, scope);
  }
  return scope;
}

function addFromItem(item: PgNode | null | undefined, scope: ColumnScope): void {
  if (item === null || typeof item !== "object") return;
  const table = item["table"] as PgNode | null | undefined;
  if (table !== null && typeof table === "object" && isTableRef(table)) {
    const parts: string[] = [];
    for (const part of [table["catalog"], table["schema"], table["name"]]) {
      const name = (part as PgNode | null)?.["name"];
      if (typeof name === "string") parts.push(name);
    }
    const alias = (table["alias"] as PgNode | null)?.["name"];
    scope.addTable(parts, typeof alias === "string" ? alias : "");
    return;
  }
  const key = Object.keys(item)[0] ?? "";
  const alias = ((item[key] as PgNode | null)?.["alias"] as PgNode | null)?.["name"];
  if (typeof alias === "string") scope.addDerived(alias);
}

class Walker {
  /** The tables of the query block being walked (columns resolve against them). */
  private scope = new ColumnScope();

  constructor(
    private readonly out: MetadataCollector,
    private readonly sites: () => readonly CallSite[],
  ) {}

  walk(node: unknown): void {
    if (Array.isArray(node)) {
      for (const item of node) this.walk(item);
      return;
    }
    if (node === null || typeof node !== "object") return;
    const obj = node as PgNode;
    let count = 0;
    for (const _ in obj) count++;
    for (const key in obj) {
      const value = obj[key];
      if (value === null || typeof value !== "object") {
        // Argument-less variants serialise as `{ row_number: null }`.
        if (count === 1 && value === null && POLYGLOT_FUNCTION_KEYS.has(key))
          this.typedFunc(key, {});
        continue;
      }
      const body = value as PgNode;
      const enclosing = this.scope;
      if (count === 1 && BLOCK_KEYS.has(key)) this.scope = blockScope(key, body, enclosing);
      if (key === "table" && isTableRef(body)) this.table(body);
      else if (count === 1) this.variant(key, body);
      else if (key === "with") this.ctes(body);
      this.walk(value);
      this.scope = enclosing;
    }
  }

  /** A single-key object is an enum variant: `{ column: … }`, `{ upper: … }`, `{ insert: … }`. */
  private variant(key: string, body: PgNode): void {
    switch (key) {
      case "column":
        this.column(body);
        return;
      case "function":
      case "aggregate_function":
        if (body["no_parens"] !== true && typeof body["name"] === "string") {
          this.func(body["name"]);
        }
        return;
      case "method_call": {
        const method = body["method"] as PgNode | null;
        if (typeof method?.["name"] === "string") this.func(method["name"]);
        return;
      }
      case "insert":
        this.identifiers(body["columns"]);
        return;
      case "update":
        if (Array.isArray(body["set"])) {
          for (const pair of body["set"] as unknown[]) {
            if (Array.isArray(pair)) this.identifiers([pair[0]]);
          }
        }
        return;
      case "create_table":
      case "create_view":
      case "alter_table":
      case "alter_view":
        if (isTableRef(body["name"])) this.table(body["name"] as PgNode);
        return;
      default:
        if (POLYGLOT_FUNCTION_KEYS.has(key)) this.typedFunc(key, body);
    }
  }

  private table(ref: PgNode): void {
    const parts: string[] = [];
    for (const part of [ref["catalog"], ref["schema"], ref["name"]]) {
      const name = (part as PgNode | null)?.["name"];
      if (typeof name === "string") parts.push(name);
    }
    const span = ((ref["name"] as PgNode)["span"] ?? null) as PgNode | null;
    this.out.table(parts, typeof span?.["start"] === "number" ? span["start"] : -1);
  }

  private column(body: PgNode): void {
    const name = body["name"];
    if (typeof name === "string") {
      this.out.column(this.scope.target(), name); // CREATE INDEX column lists
      return;
    }
    if (!("join_mark" in body) || name === null || typeof name !== "object") return;
    const ident = name as PgNode;
    const text = ident["name"];
    if (typeof text !== "string" || text.startsWith("@")) return; // `@n`: a T-SQL variable
    const table = (body["table"] as PgNode | null)?.["name"];
    const qualifier = typeof table === "string" ? table : "";
    if (qualifier === "" && ident["quoted"] !== true && PSEUDO_COLUMNS.has(text.toUpperCase())) {
      return;
    }
    const span = (ident["span"] ?? null) as PgNode | null;
    const at = typeof span?.["start"] === "number" ? span["start"] : -1;
    this.out.column(this.scope.tableOf(qualifier), text, at);
  }

  private identifiers(list: unknown): void {
    if (!Array.isArray(list)) return;
    for (const item of list as (PgNode | null)[]) {
      const name = item?.["name"];
      if (typeof name === "string") this.out.column(this.scope.target(), name);
    }
  }

  private ctes(body: PgNode): void {
    if (!Array.isArray(body["ctes"])) return;
    for (const cte of body["ctes"] as PgNode[]) {
      const name = (cte["alias"] as PgNode | null)?.["name"];
      if (typeof name === "string") this.out.cte(name);
    }
  }

  private func(name: string): void {
    const norm = normaliseFunctionName(name.slice(name.lastIndexOf(".") + 1));
    const site = this.sites().find((s) => s.norm === norm);
    this.out.func(name, site?.at ?? -1);
  }

  private typedFunc(key: string, body: PgNode): void {
    const original = body["original_name"];
    if (typeof original === "string") {
      this.func(original);
      return;
    }
    const norm = normaliseFunctionName(key.replace(/_func$/, ""));
    const spellings = [norm, ...(FUNCTION_ALIASES[norm] ?? [])];
    const site = this.sites().find((s) => spellings.includes(s.norm));
    if (site !== undefined) this.out.func(site.text, site.at);
    else this.out.func(key.replace(/_func$/, "").toUpperCase());
  }
}

function isTableRef(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const name = (value as PgNode)["name"];
  return name !== null && typeof name === "object" && typeof (name as PgNode)["name"] === "string";
}
