import type { ParsedStatement } from "../../core/ports/sql-parser.js";
import { MetadataCollector, type StatementNames } from "./metadata-collector.js";

/**
 * A statement in the neutral model whose kind is known up front and whose name lists are walked
 * from the vendor tree only when first read, so validation and `parse_sql` never pay for the walk.
 * Subclasses say how to walk their vendor's tree.
 *
 * @example
 * class MyStatement extends LazyStatement {
 *   readonly kind = "Select";
 *   protected collectInto(out: MetadataCollector) { out.table(["users"]); }
 * }
 */
export abstract class LazyStatement implements ParsedStatement {
  abstract readonly kind: string;
  #names: StatementNames | undefined;

  /** `names`: the name lists when already known (the walk is then never run). */
  constructor(names?: StatementNames) {
    this.#names = names;
  }

  get tables(): readonly string[] {
    return this.#collect().tables;
  }

  get columns(): readonly string[] {
    return this.#collect().columns;
  }

  get functions(): readonly string[] {
    return this.#collect().functions;
  }

  /** The neutral model as plain data (the vendor tree stays private). */
  toJSON(): ParsedStatement {
    const { tables, columns, functions } = this.#collect();
    return { kind: this.kind, tables, columns, functions };
  }

  /** Walks the vendor tree into `out`; called once, on the first read of a name list. */
  protected abstract collectInto(out: MetadataCollector): void;

  #collect(): StatementNames {
    if (this.#names === undefined) {
      const collector = new MetadataCollector();
      this.collectInto(collector);
      this.#names = collector.result();
    }
    return this.#names;
  }
}
