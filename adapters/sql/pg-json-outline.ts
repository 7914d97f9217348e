import { JSON_LAYOUT_UNKNOWN, JsonTextCursor } from "./json-text-cursor.js";

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
  const root = shallowTree(json) as { stmts?: unknown };
  const entries = Array.isArray(root.stmts) ? (root.stmts as unknown[]) : [];
  return entries.map((entry) => {
    const stmt = (entry as PgNode | null)?.["stmt"];
    return stmt !== null && typeof stmt === "object" ? (stmt as PgNode) : undefined;
  });
}

/**
 * The root, the list, each entry, its `stmt` and the statement body (5 levels) of the tree;
 * text in another layout than libpg-query's compact one is parsed whole (same fields, deeper
 * levels built), and text that is no JSON throws `JSON.parse`'s `SyntaxError`.
 */
function shallowTree(json: string): unknown {
  try {
    return new ShallowTreeReader(json).read(5);
  } catch (error) {
    if (error !== JSON_LAYOUT_UNKNOWN) throw error;
    return JSON.parse(json) as unknown;
  }
}

/** Stands for a skipped object or array (no fields: nothing below the kept levels is read). */
const SKIPPED: PgNode = Object.freeze({});

/**
 * Builds only the first `levels` levels of containers of libpg-query's compact JSON; throws
 * {@link JSON_LAYOUT_UNKNOWN} at any other layout (the caller then parses the text whole).
 */
class ShallowTreeReader extends JsonTextCursor {
  read(levels: number): unknown {
    const value = this.value(levels);
    if (this.i !== this.s.length) throw JSON_LAYOUT_UNKNOWN;
    return value;
  }

  private value(levels: number): unknown {
    const c = this.peek();
    if (c !== 123 && c !== 91) return this.scalar();
    if (levels === 0) {
      this.skipValue();
      return SKIPPED;
    }
    return c === 123 ? this.object(levels - 1) : this.array(levels - 1);
  }

  private object(levels: number): PgNode {
    const out: PgNode = {};
    this.expect(123);
    if (this.closes(125)) return out;
    for (;;) {
      const key = this.key();
      out[key] = this.value(levels);
      if (this.separator(125)) return out;
    }
  }

  private array(levels: number): unknown[] {
    const out: unknown[] = [];
    this.expect(91);
    if (this.closes(93)) return out;
    for (;;) {
      out.push(this.value(levels));
      if (this.separator(93)) return out;
    }
  }
}
