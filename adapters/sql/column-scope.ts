/**
 * The tables a query block reads, to tell which table a column belongs to. Metadata lists one
 * column per distinct (table, column) pair, so `SELECT email FROM customers UNION SELECT email
 * FROM subscribers` has `email` twice while `SELECT u.id, id FROM users u` has it once.
 */

interface Source {
  /** Lower-case table name as written (`public.users`), or `(alias` for a derived table. */
  readonly key: string;
  /** Lower-case alias, or "" when the table has none. */
  readonly alias: string;
  /** Lower-case last part of the name (`users` for `public.users`). */
  readonly last: string;
}

/**
 * One query block's FROM list (or an INSERT/UPDATE/DELETE target), chained to the enclosing
 * block's scope so correlated references resolve outwards.
 *
 * @example
 * const outer = new ColumnScope();
 * outer.addTable(["public", "users"], "u");
 * outer.tableOf("u"); // "public.users"
 * outer.tableOf(""); // "public.users": the block's only table
 * new ColumnScope(outer).tableOf("u"); // "public.users", from the enclosing block
 */
export class ColumnScope {
  private readonly sources: Source[] = [];

  constructor(private readonly parent?: ColumnScope) {}

  /** A table read by this block, with its alias when it has one. */
  addTable(parts: readonly string[], alias = ""): void {
    if (parts.length === 0) return;
    const key = parts.join(".").toLowerCase();
    const last = (parts[parts.length - 1] ?? "").toLowerCase();
    this.sources.push({ key, alias: alias.toLowerCase(), last });
  }

  /** A derived table or table function, known only by its alias. */
  addDerived(alias: string): void {
    if (alias === "") return;
    const name = alias.toLowerCase();
    this.sources.push({ key: `(${name}`, alias: name, last: name });
  }

  /**
   * The key of the table a column belongs to: the table its qualifier names (alias or table name,
   * looked up outwards), the only table of the nearest block that reads one when unqualified, or
   * the lower-cased qualifier itself when nothing matches ("" when unqualified and ambiguous).
   */
  tableOf(qualifier: string): string {
    return this.lookup(qualifier.toLowerCase()) ?? qualifier.toLowerCase();
  }

  /** The key of the table this block writes (the first one added), or "" when it has none. */
  target(): string {
    return this.sources[0]?.key ?? "";
  }

  private lookup(wanted: string): string | undefined {
    if (wanted === "") {
      if (this.sources.length === 0) return this.parent?.lookup(wanted);
      return this.sources.length === 1 ? (this.sources[0] as Source).key : "";
    }
    for (const source of this.sources) {
      if (source.alias === wanted) return source.key;
      if (source.alias === "" && (source.key === wanted || source.last === wanted)) {
        return source.key;
      }
    }
    return this.parent?.lookup(wanted);
  }
}
