import { ColumnScope } from "./column-scope.js";
import { JSON_LAYOUT_UNKNOWN, JsonTextCursor } from "./json-text-cursor.js";
import { MetadataCollector, type StatementNames } from "./metadata-collector.js";
import type { PgNode } from "./pg-json-outline.js";
import {
  BLOCK_KEYS,
  blockScope,
  columnRefNames,
  funcCallNames,
  pgStatementKind,
  SET_TARGET_OWNERS,
  visitField,
} from "./pg-statement.js";
import type { SourceText } from "./source-text.js";

/** One statement read by {@link readPgStatements}: its kind and its name lists. */
export interface PgStatementNames {
  readonly kind: string;
  readonly names: StatementNames;
}

/**
 * The kinds and name lists of the statements of libpg-query's JSON parse tree, read in one pass
 * over the JSON text without building the tree: the same lists as `JSON.parse` followed by the
 * `PgStatement` walk (which it replays: the walk's field handlers run on the few nodes they read,
 * in the walk's order, once every query block's FROM list is known), at about half the cost.
 * Only what a handler or a query block's scope reads is built (column and function names,
 * table references, FROM lists); constants, operators, types and the rest are passed over.
 * `undefined` entries stand for entries without a statement. Answers `undefined` for text it
 * does not know the layout of, or nested deeper than {@link MAX_DEPTH}: the caller then takes
 * the `JSON.parse` path.
 *
 * @example
 * readPgStatements('{"version":180004,"stmts":[{"stmt":{"SelectStmt":{…}}}]}', new SourceText(sql));
 * // [{ kind: "Select", names: { tables: ["users"], columns: ["id"], functions: [] } }]
 */
export function readPgStatements(
  json: string,
  source: SourceText,
): (PgStatementNames | undefined)[] | undefined {
  try {
    return new NameReader(json, source).statements();
  } catch (error) {
    if (error === UNKNOWN_LAYOUT) return undefined;
    throw error;
  }
}

/** Nesting (objects and arrays) past which the JSON.parse path, with its stack-safe walk, reads. */
const MAX_DEPTH = 400;

/** Thrown inside the reader for a layout it does not know; never leaves {@link readPgStatements}. */
const UNKNOWN_LAYOUT = JSON_LAYOUT_UNKNOWN;

/** The walk's field handler reads the value (`visitField`). */
const HANDLER = 1;
/** Kept in a built node: what handlers and `blockScope` read below the node they are given. */
const KEPT = 2;
/** A query block (`BLOCK_KEYS`): opens a scope unless its owner is a JoinExpr. */
const BLOCK = 4;
/** `targetList`: a handler call only under the `SET_TARGET_OWNERS`. */
const TARGET_LIST = 8;
const COLUMN_REF = 16;
const FUNC_CALL = 32;
/** Nothing below is read or walked for names: passed over unread (`A_Const`: a literal). */
const LITERAL = 64;
/** `name`: under an A_Expr, the operator's name parts, passed over unread. */
const NAME = 128;

/** What the reader does with a container-valued field, by key (absent: walk it only). */
const KEY_FLAGS: ReadonlyMap<string, number> = (() => {
  const flags = new Map<string, number>();
  const add = (keys: Iterable<string>, flag: number) => {
    for (const key of keys) flags.set(key, (flags.get(key) ?? 0) | flag);
  };
  add(["RangeVar", "CoalesceExpr", "MinMaxExpr", "A_Expr", "CommonTableExpr"], HANDLER);
  add(["cols", "rel", "relation", "view"], HANDLER);
  add(["fields", "funcname", "alias", "String", "larg", "rarg", "RangeVar", "JoinExpr"], KEPT);
  add(["RangeSubselect", "RangeFunction", "relation", "fromClause", "usingClause"], KEPT);
  add(["ResTarget"], KEPT);
  add(BLOCK_KEYS, BLOCK);
  add(["targetList"], TARGET_LIST);
  add(["ColumnRef"], COLUMN_REF);
  add(["FuncCall"], FUNC_CALL);
  add(["A_Const"], LITERAL);
  add(["name"], NAME);
  return flags;
})();

/**
 * The owners the walk's decisions depend on (`SET_TARGET_OWNERS`, a JoinExpr's sides, an
 * A_Expr's operator name); any other node type owns its fields as {@link OTHER_NODE}.
 */
const OWNER_NAMES = [...SET_TARGET_OWNERS, "JoinExpr", "A_Expr"];
/** The owner every other node type stands for: none of the walk's decisions names it. */
const OTHER_NODE = "*";

/** The keys the reader tells apart, by length, with their flags (0 for an owner name only). */
const KEYS_BY_LENGTH: (readonly (readonly [string, number])[] | undefined)[] = (() => {
  const table: [string, number][][] = [];
  for (const key of new Set([...KEY_FLAGS.keys(), ...OWNER_NAMES])) {
    (table[key.length] ??= []).push([key, KEY_FLAGS.get(key) ?? 0]);
  }
  return table;
})();

/** A query block's scope, made once every block's FROM list has been read. */
interface ScopeRef {
  readonly parent: ScopeRef | undefined;
  body: PgNode | undefined;
  scope: ColumnScope | undefined;
}

/** A field handler call of the walk, replayed after the pass. */
type Deferred =
  | {
      readonly type: 0;
      readonly key: string;
      readonly owner: string;
      readonly at: ScopeRef;
      body: PgNode;
    }
  | {
      readonly type: 1;
      readonly at: ScopeRef;
      readonly fields: (string | undefined)[];
      readonly body: PgNode;
    }
  | { readonly type: 2; readonly names: string[]; readonly body: PgNode };

const EMPTY: PgNode = Object.freeze({});

// libpg-query writes its JSON compactly; text in any other layout is left to JSON.parse.
const STRING_ITEM = '{"String":{"sval":"';
const EMPTY_STRING_ITEM = '{"String":{}}';
const STAR_ITEM = '{"A_Star":{}}';
const FIELDS = '{"fields":[';
const LOCATION = ',"location":';

class NameReader extends JsonTextCursor {
  private depth = 0;
  private deferred: Deferred[] = [];

  constructor(
    s: string,
    private readonly source: SourceText,
  ) {
    super(s);
  }

  statements(): (PgStatementNames | undefined)[] {
    const out: (PgStatementNames | undefined)[] = [];
    this.expect(123);
    if (!this.closes(125)) {
      do {
        const key = this.key();
        if (key === "stmts" && this.peek() === 91) {
          this.expect(91);
          if (!this.closes(93)) {
            do out.push(this.entry());
            while (!this.separator(93));
          }
        } else {
          this.skipValue();
        }
      } while (!this.separator(125));
    }
    if (this.i !== this.s.length) throw UNKNOWN_LAYOUT;
    return out;
  }

  /** One entry of `stmts`: `{"stmt":{…},"stmt_location":…,"stmt_len":…}`. */
  private entry(): PgStatementNames | undefined {
    let read: PgStatementNames | undefined;
    this.expect(123);
    if (this.closes(125)) return undefined;
    do {
      const key = this.key();
      if (key === "stmt" && this.peek() === 123) read = this.statement();
      else this.skipValue();
    } while (!this.separator(125));
    return read;
  }

  /** A statement node `{"SelectStmt":{…}}`: walked as `PgStatement` walks it, from owner "". */
  private statement(): PgStatementNames {
    this.deferred = [];
    const root: ScopeRef = { parent: undefined, body: undefined, scope: new ColumnScope() };
    const node = this.object("", root, true, true);
    const out = new MetadataCollector();
    const scopeOf = (ref: ScopeRef): ColumnScope =>
      (ref.scope ??= blockScope(ref.body ?? EMPTY, scopeOf(ref.parent as ScopeRef)));
    const source = this.source;
    for (const call of this.deferred) {
      if (call.type === 2) {
        funcCallNames(call.names, call.body, out, source);
      } else if (call.type === 1) {
        columnRefNames(call.fields, call.body, { out, source, scope: scopeOf(call.at) });
      } else {
        visitField(call.key, call.body, { out, source, scope: scopeOf(call.at) }, call.owner);
      }
    }
    return { kind: pgStatementKind(node), names: out.result() };
  }

  /**
   * The object at the cursor, visited as the walk visits it; built (scalars and the
   * {@link KEPT} containers, or every container with `all`) when `keep`.
   */
  private object(owner: string, at: ScopeRef, keep: boolean, all = false): PgNode {
    if (++this.depth > MAX_DEPTH) throw UNKNOWN_LAYOUT;
    const s = this.s;
    const out: PgNode = keep ? {} : EMPTY;
    this.expect(123);
    if (!this.closes(125)) {
      do {
        if (s.charCodeAt(this.i) !== 34) throw UNKNOWN_LAYOUT;
        const start = this.i + 1;
        const end = s.indexOf('"', start);
        if (end === -1 || s.charCodeAt(end + 1) !== 58) throw UNKNOWN_LAYOUT;
        this.i = end + 2;
        const c = s.charCodeAt(this.i);
        if (c === 123 || c === 91) {
          // Told apart by comparing in place: most keys are never sliced out of the text.
          let known: string | undefined;
          let flags = 0;
          const row = KEYS_BY_LENGTH[end - start];
          if (row !== undefined) {
            for (const [name, nameFlags] of row) {
              if (s.startsWith(name, start)) {
                known = name;
                flags = nameFlags;
                break;
              }
            }
          }
          const kept = keep && (all || (flags & KEPT) !== 0);
          const key = known ?? (kept ? s.slice(start, end) : "");
          const first = s.charCodeAt(start);
          const inner = first >= 65 && first <= 90 ? (known ?? OTHER_NODE) : owner;
          const value = this.field(key, flags, c, inner, owner, at, kept);
          if (kept) out[key] = value;
        } else if (keep) {
          out[s.slice(start, end)] = this.scalar();
        } else {
          this.skipScalar();
        }
      } while (!this.separator(125));
    }
    this.depth--;
    return out;
  }

  /**
   * An object-valued field: the walk's handler call (deferred), then the value's own walk, owned
   * by `inner` (the key when it is a node type, else `owner`). `key` is the field's name when
   * it has flags or is kept, else "".
   */
  private field(
    key: string,
    flags: number,
    c: number,
    inner: string,
    owner: string,
    at: ScopeRef,
    kept: boolean,
  ): unknown {
    if (flags === 0 || flags === KEPT) return this.value(c, inner, at, kept);
    if (flags === COLUMN_REF) return this.columnRef(at, c);
    if (!kept && (flags === LITERAL || (flags === NAME && owner === "A_Expr"))) {
      this.skipValue();
      return EMPTY;
    }
    if (flags === FUNC_CALL) return this.funcCall(c, at, kept);
    if ((flags & HANDLER) !== 0 || (flags === TARGET_LIST && SET_TARGET_OWNERS.has(owner))) {
      const call: Deferred = { type: 0, key, owner, at, body: EMPTY };
      this.deferred.push(call);
      const body = this.value(c, inner, at, true);
      call.body = body as PgNode;
      return body;
    }
    if ((flags & BLOCK) !== 0 && owner !== "JoinExpr") {
      // A query block: its scope is made from what is kept of it (relation, FROM, USING).
      const scope: ScopeRef = { parent: at, body: undefined, scope: undefined };
      const body = this.value(c, inner, scope, true) as PgNode;
      scope.body = body;
      return body;
    }
    return this.value(c, inner, at, kept);
  }

  private value(c: number, owner: string, at: ScopeRef, keep: boolean): unknown {
    return c === 123 ? this.object(owner, at, keep) : this.array(owner, at, keep);
  }

  private array(owner: string, at: ScopeRef, keep: boolean): unknown[] {
    if (++this.depth > MAX_DEPTH) throw UNKNOWN_LAYOUT;
    const out: unknown[] = [];
    this.expect(91);
    if (!this.closes(93)) {
      do {
        const c = this.peek();
        const item = c === 123 || c === 91 ? this.value(c, owner, at, keep) : this.scalar();
        if (keep) out.push(item);
      } while (!this.separator(93));
    }
    this.depth--;
    return out;
  }

  /** `{"fields":[{"String":{"sval":"u"}},{"A_Star":{}}],"location":7}`: nothing below to walk. */
  private columnRef(at: ScopeRef, c: number): PgNode {
    const s = this.s;
    if (c !== 123 || !s.startsWith(FIELDS, this.i)) throw UNKNOWN_LAYOUT;
    this.i += FIELDS.length - 1;
    const body: PgNode = {};
    const call: Deferred = { type: 1, at, fields: [], body };
    this.deferred.push(call);
    this.nameList(call.fields, true);
    if (s.startsWith(LOCATION, this.i)) {
      this.i += LOCATION.length;
      body["location"] = this.scalar();
    }
    this.expect(125);
    return body;
  }

  /** A FuncCall: its names and scalars read here, its arguments walked as the walk does. */
  private funcCall(c: number, at: ScopeRef, kept: boolean): PgNode {
    if (c !== 123) throw UNKNOWN_LAYOUT;
    if (++this.depth > MAX_DEPTH) throw UNKNOWN_LAYOUT;
    const body: PgNode = {};
    const names: string[] = [];
    this.deferred.push({ type: 2, names, body });
    this.expect(123);
    if (!this.closes(125)) {
      do {
        const key = this.key();
        const v = this.peek();
        if (key === "funcname" && v === 91) {
          const parts: (string | undefined)[] = [];
          this.nameList(parts, false);
          for (const part of parts) if (part !== undefined) names.push(part);
        } else if (v === 123 || v === 91) {
          const inner = isNodeType(key) ? key : "FuncCall";
          this.field(key, KEY_FLAGS.get(key) ?? 0, v, inner, "FuncCall", at, false);
        } else {
          body[key] = this.scalar();
        }
      } while (!this.separator(125));
    }
    this.depth--;
    return kept ? body : EMPTY;
  }

  /** `[{"String":{"sval":"a"}},…]` into `out` (`{"A_Star":{}}` as undefined when `stars`). */
  private nameList(out: (string | undefined)[], stars: boolean): void {
    const s = this.s;
    this.expect(91);
    if (this.closes(93)) return;
    do {
      if (s.startsWith(STRING_ITEM, this.i)) {
        this.i += STRING_ITEM.length - 1;
        out.push(this.string());
        this.expect(125);
        this.expect(125);
      } else if (s.startsWith(EMPTY_STRING_ITEM, this.i)) {
        this.i += EMPTY_STRING_ITEM.length;
        out.push(undefined);
      } else if (stars && s.startsWith(STAR_ITEM, this.i)) {
        this.i += STAR_ITEM.length;
        out.push(undefined);
      } else {
        throw UNKNOWN_LAYOUT;
      }
    } while (!this.separator(93));
  }
}

/** Node types are capitalised (`SelectStmt`); fields are not (`targetList`). */
function isNodeType(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 65 && first <= 90;
}
