/**
 * Reads the JSON text of a compact JSON-RPC request whose arguments are flat, the shape every hot
 * MCP call has (`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"validate_sql",
 * "arguments":{"sql":"SELECT 1"}}}`, keys in any order), into the value `JSON.parse` gives, or
 * `undefined` for any other text: whitespace between tokens, other keys, nested arguments,
 * numbers other than plain integers, control characters in strings. The caller then parses the
 * text with `JSON.parse`, so every text has the same meaning either way. On a 1-line tool call,
 * `JSON.parse` of the body spent most of its time in V8's map transitions and key lookups
 * (~4 % of the server's CPU per call, `perf`); the objects built here have their shape from
 * literals.
 *
 * @example
 * readFlatRequest('{"jsonrpc":"2.0","id":7,"method":"ping"}'); // { jsonrpc: "2.0", id: 7, method: "ping" }
 * readFlatRequest('{ "jsonrpc": "2.0" }'); // undefined: JSON.parse reads it
 */
export function readFlatRequest(text: string): Record<string, unknown> | undefined {
  const cursor = new FlatCursor(text);
  const message = cursor.request();
  return message !== undefined && cursor.i === text.length ? message : undefined;
}

/** Keys of a request and of its params, as JSON text with the colon (compared in place). */
const JSONRPC = '"jsonrpc":';
const ID = '"id":';
const METHOD = '"method":';
const PARAMS = '"params":';
const NAME = '"name":';
const ARGUMENTS = '"arguments":';

/** An argument's name: lower-case letters, digits and underscores, never `__proto__`. */
const ARGUMENT_NAME = /^[a-z0-9_]+$/;

class FlatCursor {
  i = 0;

  constructor(readonly s: string) {}

  /** `{…}` with `jsonrpc`, `id`, `method` and `params`, each at most once, in any order. */
  request(): Record<string, unknown> | undefined {
    const s = this.s;
    if (s.charCodeAt(0) !== 123) return undefined;
    this.i = 1;
    const out: Record<string, unknown> = {};
    if (s.charCodeAt(1) === 125) {
      this.i = 2;
      return out;
    }
    let seen = 0;
    for (;;) {
      if (this.key(JSONRPC, seen, 1)) {
        seen |= 1;
        const value = this.scalar();
        if (value === NONE) return undefined;
        out["jsonrpc"] = value;
      } else if (this.key(ID, seen, 2)) {
        seen |= 2;
        const value = this.scalar();
        if (value === NONE) return undefined;
        out["id"] = value;
      } else if (this.key(METHOD, seen, 4)) {
        seen |= 4;
        const value = this.scalar();
        if (value === NONE) return undefined;
        out["method"] = value;
      } else if (this.key(PARAMS, seen, 8)) {
        seen |= 8;
        const value = this.params();
        if (value === undefined) return undefined;
        out["params"] = value;
      } else {
        return undefined;
      }
      if (!this.more()) return out;
    }
  }

  /** `{"name":…,"arguments":{…}}`, each at most once, in any order; the values may be scalars. */
  private params(): Record<string, unknown> | undefined {
    const s = this.s;
    if (s.charCodeAt(this.i) !== 123) return undefined;
    this.i++;
    const out: Record<string, unknown> = {};
    if (s.charCodeAt(this.i) === 125) {
      this.i++;
      return out;
    }
    let seen = 0;
    for (;;) {
      if (this.key(NAME, seen, 1)) {
        seen |= 1;
        const value = this.scalar();
        if (value === NONE) return undefined;
        out["name"] = value;
      } else if (this.key(ARGUMENTS, seen, 2)) {
        seen |= 2;
        const value = s.charCodeAt(this.i) === 123 ? this.flatObject() : this.scalar();
        if (value === NONE || value === undefined) return undefined;
        out["arguments"] = value;
      } else {
        return undefined;
      }
      if (!this.more()) return out;
    }
  }

  /** `{"sql":"…","dialect":"mysql",…}`: scalar values only; a repeated name keeps its last value. */
  private flatObject(): Record<string, unknown> | undefined {
    const s = this.s;
    this.i++;
    const out: Record<string, unknown> = {};
    if (s.charCodeAt(this.i) === 125) {
      this.i++;
      return out;
    }
    for (;;) {
      const name = this.string();
      if (typeof name !== "string" || name === "__proto__" || !ARGUMENT_NAME.test(name)) {
        return undefined;
      }
      if (s.charCodeAt(this.i) !== 58) return undefined;
      this.i++;
      const value = this.scalar();
      if (value === NONE) return undefined;
      out[name] = value;
      if (!this.more()) return out;
    }
  }

  /** True (and past it) when `key` is next and its bit is not in `seen` yet. */
  private key(key: string, seen: number, bit: number): boolean {
    if ((seen & bit) !== 0 || !this.s.startsWith(key, this.i)) return false;
    this.i += key.length;
    return true;
  }

  /** `,` (true) or `}` (false); anything else ends the read at a position no caller accepts. */
  private more(): boolean {
    const c = this.s.charCodeAt(this.i);
    if (c === 44) {
      this.i++;
      return true;
    }
    // A `}` is consumed; anything else leaves `i` short of the text's end or fails the next key.
    if (c === 125) this.i++;
    else this.i = -1;
    return false;
  }

  /** A string, a plain integer, `true`, `false` or `null`; {@link NONE} for anything else. */
  private scalar(): unknown {
    const s = this.s;
    const c = s.charCodeAt(this.i);
    if (c === 34) return this.string();
    if (c === 116 && s.startsWith("true", this.i)) return this.word(4, true);
    if (c === 102 && s.startsWith("false", this.i)) return this.word(5, false);
    if (c === 110 && s.startsWith("null", this.i)) return this.word(4, null);
    const start = this.i;
    let i = c === 45 ? start + 1 : start;
    const first = i;
    while (i < s.length) {
      const d = s.charCodeAt(i);
      if (d < 48 || d > 57) break;
      i++;
    }
    const digits = i - first;
    // Leading zeros are not JSON; fractions, exponents and long numbers go to JSON.parse.
    if (digits === 0 || digits > 15 || (digits > 1 && s.charCodeAt(first) === 48)) return NONE;
    const next = s.charCodeAt(i);
    if (next !== 44 && next !== 125) return NONE;
    this.i = i;
    return Number(s.slice(start, i));
  }

  private word(length: number, value: boolean | null): boolean | null {
    this.i += length;
    return value;
  }

  /** A string; escapes are decoded by `JSON.parse` of the string alone. {@link NONE} if not one. */
  private string(): string | typeof NONE {
    const s = this.s;
    const start = this.i;
    if (s.charCodeAt(start) !== 34) return NONE;
    let escaped = false;
    for (let i = start + 1; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 34) {
        this.i = i + 1;
        return escaped ? decoded(s.slice(start, i + 1)) : s.slice(start + 1, i);
      }
      if (c < 32) return NONE;
      if (c === 92) {
        escaped = true;
        i++;
      }
    }
    return NONE;
  }
}

/** Not a value this reader takes. */
const NONE: unique symbol = Symbol("none");

function decoded(literal: string): string | typeof NONE {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return NONE;
  }
}
