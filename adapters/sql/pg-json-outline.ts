/** A node of libpg-query's JSON tree: `{ NodeType: { ...fields } }` or plain field objects. */
export type PgNode = Record<string, unknown>;

/**
 * The statement entries of libpg-query's JSON parse tree, read shallowly: each entry's `stmt` as
 * `{ NodeType: body }` where the body has its scalar fields only (its objects and arrays are
 * skipped over, never built) — what naming the statement kind needs (`op` of a SelectStmt,
 * `objtype`, `is_grant`). `undefined` stands for an entry without a `stmt`. One pass over the
 * text without building the tree: about 5× cheaper than `JSON.parse` of it.
 *
 * @example
 * outlinePgStatements('{"version":180004,"stmts":[{"stmt":{"SelectStmt":{"targetList":[…],"op":"SETOP_NONE"}}}]}');
 * // [{ SelectStmt: { op: "SETOP_NONE", targetList: {} } }]
 */
export function outlinePgStatements(json: string): (PgNode | undefined)[] {
  // Materialise the root, the list, each entry, its `stmt` and the statement body (5 levels).
  const root = new ShallowJsonReader(json).read(5) as { stmts?: unknown };
  const entries = Array.isArray(root.stmts) ? (root.stmts as unknown[]) : [];
  return entries.map((entry) => {
    const stmt = (entry as PgNode | null)?.["stmt"];
    return stmt !== null && typeof stmt === "object" ? (stmt as PgNode) : undefined;
  });
}

/** Stands for a skipped object or array (no fields: nothing below the kept levels is read). */
const SKIPPED: PgNode = Object.freeze({});

/** A JSON reader that builds only the first `levels` levels of containers. */
class ShallowJsonReader {
  private i = 0;

  constructor(private readonly s: string) {}

  read(levels: number): unknown {
    const value = this.value(levels);
    this.blanks();
    if (this.i !== this.s.length) this.fail();
    return value;
  }

  private value(levels: number): unknown {
    this.blanks();
    const c = this.s.charCodeAt(this.i);
    if (c === 123 || c === 91) {
      if (levels === 0) {
        this.skip();
        return SKIPPED;
      }
      return c === 123 ? this.object(levels - 1) : this.array(levels - 1);
    }
    if (c === 34) return this.string();
    return this.scalar();
  }

  private object(levels: number): PgNode {
    const out: PgNode = {};
    this.i++;
    this.blanks();
    if (this.s.charCodeAt(this.i) === 125) {
      this.i++;
      return out;
    }
    for (;;) {
      this.blanks();
      if (this.s.charCodeAt(this.i) !== 34) this.fail();
      const key = this.string();
      this.blanks();
      if (this.s.charCodeAt(this.i++) !== 58) this.fail();
      out[key] = this.value(levels);
      if (this.separator(125)) return out;
    }
  }

  private array(levels: number): unknown[] {
    const out: unknown[] = [];
    this.i++;
    this.blanks();
    if (this.s.charCodeAt(this.i) === 93) {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(levels));
      if (this.separator(93)) return out;
    }
  }

  /** Reads `,` (false) or the closing `close` (true). */
  private separator(close: number): boolean {
    this.blanks();
    const c = this.s.charCodeAt(this.i++);
    if (c === close) return true;
    if (c !== 44) this.fail();
    return false;
  }

  private string(): string {
    const start = this.i;
    const end = this.stringEnd(start + 1);
    this.i = end + 1;
    const raw = this.s.slice(start + 1, end);
    return raw.includes("\\") ? (JSON.parse(this.s.slice(start, end + 1)) as string) : raw;
  }

  /** Index of the quote closing a string whose text starts at `from`. */
  private stringEnd(from: number): number {
    let end = this.s.indexOf('"', from);
    for (;;) {
      if (end === -1) this.fail();
      let backslashes = 0;
      while (this.s.charCodeAt(end - 1 - backslashes) === 92) backslashes++;
      if (backslashes % 2 === 0) return end;
      end = this.s.indexOf('"', end + 1);
    }
  }

  private scalar(): unknown {
    const start = this.i;
    const n = this.s.length;
    while (this.i < n) {
      const c = this.s.charCodeAt(this.i);
      if (c === 44 || c === 125 || c === 93 || c <= 32) break;
      this.i++;
    }
    if (this.i === start) this.fail();
    return JSON.parse(this.s.slice(start, this.i)) as unknown;
  }

  /** Moves past the object or array at the cursor, strings included, without building it. */
  private skip(): void {
    const s = this.s;
    const n = s.length;
    let depth = 0;
    let i = this.i;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === 34) {
        i = this.stringEnd(i + 1) + 1;
        continue;
      }
      i++;
      if (c === 123 || c === 91) depth++;
      else if ((c === 125 || c === 93) && --depth === 0) {
        this.i = i;
        return;
      }
    }
    this.fail();
  }

  private blanks(): void {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return;
      this.i++;
    }
  }

  private fail(): never {
    throw new SyntaxError(`libpg-query tree: unexpected JSON at ${this.i}`);
  }
}
