/**
 * Collects the names one statement references while an adapter walks its vendor tree, and turns
 * them into the neutral lists of `ParsedStatement`: source order, each once, CTE names dropped.
 */

interface Seen {
  readonly at: number;
  readonly order: number;
  readonly value: string;
  readonly key: string;
  /** A column's qualifier (the table key it resolved to); "" for tables and functions. */
  readonly qualifier: string;
}

/** The three name lists of a statement. */
export interface StatementNames {
  readonly tables: readonly string[];
  readonly columns: readonly string[];
  readonly functions: readonly string[];
}

/**
 * Accumulates tables, columns and functions with their source positions. Positions order the
 * result ("first seen" means first in the text, whatever order the tree stores clauses in: the
 * PostgreSQL tree keeps `WITH` after the main query); items without a position keep walk order.
 *
 * @example
 * const names = new MetadataCollector();
 * names.table(["public", "users"], 14);
 * names.column("u", "id", 7);
 * names.result(); // { tables: ["public.users"], columns: ["id"], functions: [] }
 */
export class MetadataCollector {
  private readonly tables: Seen[] = [];
  private readonly columns: Seen[] = [];
  private readonly functions: Seen[] = [];
  private readonly cteNames = new Set<string>();
  private order = 0;

  /** A table reference; `parts` are the unquoted name parts as written. */
  table(parts: readonly string[], at = -1): void {
    if (parts.length === 0) return;
    const value = parts.join(".");
    // Only a one-part name can refer to a CTE; the key remembers that for the final filter.
    const key = parts.length === 1 ? `1:${value.toLowerCase()}` : `n:${value}`;
    this.tables.push({ at, order: this.order++, value, key, qualifier: "" });
  }

  /** A column reference: `qualifier` as written (empty when bare), `name` unquoted. */
  column(qualifier: string, name: string, at = -1): void {
    if (name === "" || name === "*") return;
    this.columns.push({
      at,
      order: this.order++,
      value: name,
      key: `${qualifier}\u0000${name}`,
      qualifier,
    });
  }

  /** A function call, name as written. */
  func(name: string, at = -1): void {
    if (name === "") return;
    this.functions.push({ at, order: this.order++, value: name, key: name, qualifier: "" });
  }

  /** A CTE name: references to it are not tables. */
  cte(name: string): void {
    this.cteNames.add(name.toLowerCase());
  }

  /** The lists in source order, de-duplicated. */
  result(): StatementNames {
    const ctes = this.cteNames;
    // A column read from a CTE or derived table (`SELECT s.id FROM (SELECT id FROM users) s`)
    // passes on a column already listed inside it: it counts only when nothing else has its name.
    const passesOn = (s: Seen): boolean =>
      s.qualifier.startsWith("(") || (ctes.size > 0 && ctes.has(s.qualifier));
    const named = new Set(this.columns.filter((s) => !passesOn(s)).map((s) => s.value));
    return {
      tables: unique(this.tables, (s) => !(s.key.startsWith("1:") && ctes.has(s.key.slice(2)))),
      columns: unique(this.columns, (s) => !passesOn(s) || !named.has(s.value)),
      functions: unique(this.functions),
    };
  }
}

function unique(items: Seen[], keep: (s: Seen) => boolean = () => true): string[] {
  // Items mostly arrive in source order already; sorting such a list changes nothing.
  const sorted = inOrder(items) ? items : [...items].sort(bySource);
  const keys = new Set<string>();
  const out: string[] = [];
  for (const item of sorted) {
    if (keys.has(item.key) || !keep(item)) continue;
    keys.add(item.key);
    out.push(item.value);
  }
  return out;
}

/** True when no neighbours are out of {@link bySource} order (then a sort would keep the list). */
function inOrder(items: readonly Seen[]): boolean {
  for (let k = 1; k < items.length; k++) {
    if (bySource(items[k - 1] as Seen, items[k] as Seen) > 0) return false;
  }
  return true;
}

function bySource(a: Seen, b: Seen): number {
  if (a.at >= 0 && b.at >= 0 && a.at !== b.at) return a.at - b.at;
  return a.order - b.order;
}
