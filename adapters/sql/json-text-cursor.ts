/**
 * The JSON text of libpg-query's parse tree, read with a cursor: libpg-query writes it compactly
 * (no blanks), and a reader built on this cursor throws {@link JSON_LAYOUT_UNKNOWN} at anything
 * else, so that its caller can read the text another way (`JSON.parse`). The primitives the tree
 * readers share: punctuation, keys, strings and scalars, and skipping a value unread.
 *
 * @example
 * class Keys extends JsonTextCursor {
 *   first(): string { this.expect(123); return this.key(); }
 * }
 * new Keys('{"version":180004}').first(); // "version"
 */
export class JsonTextCursor {
  /** The index of the next character to read. */
  protected i = 0;

  constructor(protected readonly s: string) {}

  protected peek(): number {
    return this.s.charCodeAt(this.i);
  }

  protected expect(c: number): void {
    if (this.s.charCodeAt(this.i) !== c) throw JSON_LAYOUT_UNKNOWN;
    this.i++;
  }

  /** True (and past it) when the next character is `c`. */
  protected closes(c: number): boolean {
    if (this.s.charCodeAt(this.i) !== c) return false;
    this.i++;
    return true;
  }

  /** Reads `,` (false) or the closing `close` (true). */
  protected separator(close: number): boolean {
    const c = this.s.charCodeAt(this.i++);
    if (c === close) return true;
    if (c !== 44) throw JSON_LAYOUT_UNKNOWN;
    return false;
  }

  /** An object key and its `:` (keys are plain names in libpg-query's output). */
  protected key(): string {
    const s = this.s;
    if (s.charCodeAt(this.i) !== 34) throw JSON_LAYOUT_UNKNOWN;
    const start = this.i + 1;
    const end = s.indexOf('"', start);
    if (end === -1 || s.charCodeAt(end + 1) !== 58) throw JSON_LAYOUT_UNKNOWN;
    this.i = end + 2;
    return s.slice(start, end);
  }

  protected string(): string {
    const s = this.s;
    const start = this.i;
    const end = this.stringEnd();
    const raw = s.slice(start + 1, end);
    return raw.includes("\\") ? (parsed(s.slice(start, end + 1)) as string) : raw;
  }

  /** Moves past the string at the cursor; returns the index of its closing quote. */
  protected stringEnd(): number {
    const s = this.s;
    if (s.charCodeAt(this.i) !== 34) throw JSON_LAYOUT_UNKNOWN;
    let end = s.indexOf('"', this.i + 1);
    for (;;) {
      if (end === -1) throw JSON_LAYOUT_UNKNOWN;
      let backslashes = 0;
      while (s.charCodeAt(end - 1 - backslashes) === 92) backslashes++;
      if (backslashes % 2 === 0) break;
      end = s.indexOf('"', end + 1);
    }
    this.i = end + 1;
    return end;
  }

  /** A string, number, `true`, `false` or `null` at the cursor. */
  protected scalar(): unknown {
    const s = this.s;
    const c = s.charCodeAt(this.i);
    if (c === 34) return this.string();
    if (c === 116 && s.startsWith("true", this.i)) return this.literal(4, true);
    if (c === 102 && s.startsWith("false", this.i)) return this.literal(5, false);
    if (c === 110 && s.startsWith("null", this.i)) return this.literal(4, null);
    const start = this.i;
    let i = c === 45 ? start + 1 : start;
    let n = 0;
    while (i < s.length) {
      const d = s.charCodeAt(i);
      if (d < 48 || d > 57) break;
      n = n * 10 + (d - 48);
      i++;
    }
    const digits = i - (c === 45 ? start + 1 : start);
    const next = s.charCodeAt(i);
    if (digits > 0 && digits < 16 && (next === 44 || next === 125 || next === 93)) {
      this.i = i;
      return c === 45 ? -n : n;
    }
    // Fractions and exponents: the few numbers that are not plain integers.
    while (i < s.length) {
      const d = s.charCodeAt(i);
      if (d === 44 || d === 125 || d === 93) break;
      if (d <= 32 || d === 34 || d === 123 || d === 91 || d === 58) throw JSON_LAYOUT_UNKNOWN;
      i++;
    }
    this.i = i;
    return parsed(s.slice(start, i));
  }

  protected literal<T>(length: number, value: T): T {
    this.i += length;
    return value;
  }

  /** Moves past the scalar at the cursor without building it. */
  protected skipScalar(): void {
    const s = this.s;
    if (s.charCodeAt(this.i) === 34) {
      this.stringEnd();
      return;
    }
    let i = this.i;
    while (i < s.length) {
      const d = s.charCodeAt(i);
      if (d === 44 || d === 125 || d === 93) break;
      if (d <= 32 || d === 34 || d === 123 || d === 91 || d === 58) throw JSON_LAYOUT_UNKNOWN;
      i++;
    }
    if (i === this.i) throw JSON_LAYOUT_UNKNOWN;
    this.i = i;
  }

  /** Moves past the value at the cursor without reading it. */
  protected skipValue(): void {
    const c = this.peek();
    if (c !== 123 && c !== 91) {
      this.skipScalar();
      return;
    }
    const s = this.s;
    let depth = 0;
    let i = this.i;
    while (i < s.length) {
      const d = s.charCodeAt(i);
      if (d === 34) {
        this.i = i;
        i = this.stringEnd() + 1;
        continue;
      }
      i++;
      if (d === 123 || d === 91) depth++;
      else if ((d === 125 || d === 93) && --depth === 0) {
        this.i = i;
        return;
      }
    }
    throw JSON_LAYOUT_UNKNOWN;
  }
}

/** `JSON.parse` of one scalar; text it refuses is a layout the cursor does not know. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw JSON_LAYOUT_UNKNOWN;
  }
}

/** Thrown by a {@link JsonTextCursor} at text in a layout it does not know. */
export const JSON_LAYOUT_UNKNOWN = new Error("libpg-query tree: layout not known to the reader");
