import { createRequire } from "node:module";

/** The part of libpg-query's Emscripten module this binding calls. */
interface PgQueryModule {
  _malloc(size: number): number;
  _free(ptr: number): void;
  /** Parses a NUL-terminated UTF-8 string; returns a `PgQueryParseResult*`. */
  _wasm_parse_query_raw(query: number): number;
  _wasm_free_parse_result(result: number): void;
  UTF8ToString(ptr: number): string;
  /** Views of the module's memory; replaced when the memory grows, so read them after calls. */
  readonly HEAPU8: Uint8Array;
  readonly HEAPU32: Uint32Array;
}

/** A syntax error as PostgreSQL reports it: the message and a 0-based code-point cursor. */
export interface PgParseError {
  readonly ok: false;
  readonly message: string;
  readonly cursor: number;
}

/** One run of PostgreSQL's parser: the parse tree as libpg-query's JSON text, or the error. */
export type PgRawParse = { readonly ok: true; readonly json: string } | PgParseError;

/** The outcome of a check: whether the text holds any statement, or the error. */
export type PgRawCheck = { readonly ok: true; readonly empty: boolean } | PgParseError;

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();
/** What precedes the statement list in the tree's JSON text (`{"version":180004,"stmts":[`). */
const STMTS = '"stmts":[';
/** How a statement entry starts (libpg-query writes the JSON compactly, in struct order). */
const STMT_ENTRY = '{"stmt":';

/**
 * PostgreSQL's parser (libpg-query's WASM build) called directly, as libpg-query's own
 * `parseSync` calls it but without its `JSON.parse`: the tree comes back as JSON text, which the
 * caller reads as far as it needs (`parse`), or is not read at all (`check`). For the 60-line
 * benchmark query the tree is 13.7 KB of JSON whose `JSON.parse` cost about as much as the parse
 * itself (90 of 213 µs). The module is libpg-query's own (`libpg-query/wasm/libpg-query.js`, the
 * version pinned in package.json); this binding reads the same result structures its `parseSync`
 * reads.
 *
 * @example
 * const pg = await PgQueryWasm.load();
 * pg.parse("SELECT 1"); // { ok: true, json: '{"version":180004,"stmts":[{"stmt":{"SelectStmt":…' }
 * pg.check("SELECT FROM WHERE"); // { ok: false, message: 'syntax error at or near "WHERE"', cursor: 12 }
 */
export class PgQueryWasm {
  private constructor(private readonly module: PgQueryModule) {}

  /** Instantiates the WASM module (about 1.7 MB; tens of milliseconds). */
  static async load(): Promise<PgQueryWasm> {
    const require = createRequire(import.meta.url);
    const factory = require("libpg-query/wasm/libpg-query.js") as () => Promise<PgQueryModule>;
    return new PgQueryWasm(await factory());
  }

  /** Parses `sql`; the tree is returned as JSON text. */
  parse(sql: string): PgRawParse {
    return this.run(sql, (heap, tree) => ({
      ok: true,
      json: DECODER.decode(heap.subarray(tree, heap.indexOf(0, tree))),
    }));
  }

  /** Parses `sql` without reading the tree, except whether it holds a statement. */
  check(sql: string): PgRawCheck {
    return this.run(sql, (heap, tree) => {
      // The first 64 bytes only: the NUL ending the tree is not looked for past them.
      const window = heap.subarray(tree, tree + 64);
      const nul = window.indexOf(0);
      const head = DECODER.decode(nul < 0 ? window : window.subarray(0, nul));
      const list = head.indexOf(STMTS);
      if (list === -1) return { ok: true, empty: true };
      const first = head.slice(list + STMTS.length);
      if (first.startsWith("]")) return { ok: true, empty: true };
      if (first.startsWith(STMT_ENTRY)) return { ok: true, empty: false };
      // Not the layout this binding knows: read the tree to find out.
      const parsed = this.parse(sql);
      if (!parsed.ok) return parsed;
      const stmts = (JSON.parse(parsed.json) as { stmts?: { stmt?: unknown }[] }).stmts ?? [];
      return { ok: true, empty: !stmts.some((entry) => entry.stmt !== undefined) };
    });
  }

  private run<T>(sql: string, read: (heap: Uint8Array, tree: number) => T): T | PgParseError {
    const m = this.module;
    const bytes = Buffer.byteLength(sql, "utf8");
    const query = m._malloc(bytes + 1);
    let result = 0;
    try {
      let heap = m.HEAPU8;
      ENCODER.encodeInto(sql, heap.subarray(query, query + bytes));
      heap[query + bytes] = 0;
      result = m._wasm_parse_query_raw(query);
      if (result === 0) throw new Error("libpg-query: out of memory");
      const words = m.HEAPU32;
      const tree = words[result >>> 2] ?? 0;
      const error = words[(result + 8) >>> 2] ?? 0;
      if (error !== 0) {
        const message = m.UTF8ToString(words[error >>> 2] ?? 0) || "Unknown error";
        // PgQueryError.cursorpos: 1-based, 0 when PostgreSQL gave none (as parseSync reads it).
        const cursor = (words[(error + 16) >>> 2] ?? 0) | 0;
        return { ok: false, message, cursor: cursor > 0 ? cursor - 1 : 0 };
      }
      if (tree === 0) throw new Error("libpg-query: no parse tree generated");
      heap = m.HEAPU8;
      return read(heap, tree);
    } finally {
      m._free(query);
      if (result !== 0) m._wasm_free_parse_result(result);
    }
  }
}
