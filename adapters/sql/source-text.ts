/**
 * Offsets and names in SQL source text. The WASM parsers report positions in other units than
 * JavaScript strings use (libpg-query: UTF-8 bytes in the tree, code points in errors; polyglot:
 * code points), so every conversion goes through one place.
 */

/** A 1-based line and a 1-based column counted in code points. */
export interface LineColumn {
  readonly line: number;
  readonly column: number;
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Source text with conversions from byte and code-point offsets to string indices, and from
 * string indices to line/column. ASCII text (the common case) needs no tables at all.
 *
 * @example
 * const src = new SourceText("SELECT 'ü', x");
 * src.indexOfByte(13); // 12: the byte offset of `x` is one more than its string index
 * src.position(12); // { line: 1, column: 13 }
 */
export class SourceText {
  readonly text: string;
  readonly ascii: boolean;
  private byteIndex: Int32Array | undefined;

  constructor(text: string) {
    this.text = text;
    this.ascii = !NON_ASCII.test(text);
  }

  /** The string (UTF-16) index of a UTF-8 byte offset. */
  indexOfByte(byteOffset: number): number {
    if (this.ascii) return byteOffset;
    const table = (this.byteIndex ??= buildByteIndex(this.text));
    if (byteOffset <= 0) return 0;
    if (byteOffset >= table.length) return this.text.length;
    return table[byteOffset] ?? this.text.length;
  }

  /** The string (UTF-16) index of a code-point offset. */
  indexOfCodePoint(codePoint: number): number {
    if (this.ascii) return codePoint;
    let index = 0;
    for (let seen = 0; seen < codePoint && index < this.text.length; seen++) {
      const unit = this.text.charCodeAt(index);
      index += unit >= 0xd800 && unit <= 0xdbff ? 2 : 1;
    }
    return index;
  }

  /** The 1-based line and code-point column of a string index (clamped to the text). */
  position(index: number): LineColumn {
    const end = Math.min(Math.max(index, 0), this.text.length);
    let line = 1;
    let lineStart = 0;
    for (let i = this.text.indexOf("\n"); i !== -1 && i < end; i = this.text.indexOf("\n", i + 1)) {
      line++;
      lineStart = i + 1;
    }
    let column = 1;
    for (let i = lineStart; i < end; i++) {
      const unit = this.text.charCodeAt(i);
      if (unit >= 0xdc00 && unit <= 0xdfff && i > lineStart) continue;
      column++;
    }
    return { line, column };
  }
}

/** For each UTF-8 byte offset, the UTF-16 index of the character it belongs to. */
function buildByteIndex(text: string): Int32Array {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i) ?? 0;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    for (let b = 0; b < size; b++) bytes.push(i);
    if (code > 0xffff) i++;
  }
  bytes.push(text.length);
  return Int32Array.from(bytes);
}

const WORD_CHAR = /[\p{L}\p{N}_$]/u;

/**
 * True when the UTF-16 unit at `index` is a letter, digit, `_` or `$` (ASCII by code, the rest
 * by Unicode class; a lone half of a surrogate pair is none of them).
 *
 * @example
 * isNameCharAt("a_1 b", 3); // false
 */
export function isNameCharAt(text: string, index: number): boolean {
  const c = text.charCodeAt(index);
  if (c < 128) {
    return (
      (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36
    );
  }
  return WORD_CHAR.test(text.charAt(index));
}

/**
 * Reads up to `parts` dot-separated name parts starting at string index `index`, unquoting
 * `"a"`, `` `a` `` and `[a]` parts. Used to recover names as written where a parser folds case.
 *
 * @example
 * readNameParts('FROM "My".Tab t', 5, 2); // ["My", "Tab"]
 */
export function readNameParts(text: string, index: number, parts: number): string[] {
  const names: string[] = [];
  let i = index;
  while (names.length < parts && i < text.length) {
    const ch = text[i];
    if (ch === '"' || ch === "`" || ch === "[") {
      const close = ch === "[" ? "]" : ch;
      let name = "";
      i++;
      while (i < text.length) {
        if (text[i] === close) {
          if (text[i + 1] === close && close !== "]") {
            name += close;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        name += text[i];
        i++;
      }
      names.push(name);
    } else {
      const start = i;
      while (i < text.length && isNameCharAt(text, i)) i++;
      if (i === start) break;
      names.push(text.slice(start, i));
    }
    if (names.length === parts) break;
    let j = i;
    while (text[j] === " " || text[j] === "\t" || text[j] === "\n" || text[j] === "\r") j++;
    if (text[j] !== ".") break;
    j++;
    while (text[j] === " " || text[j] === "\t" || text[j] === "\n" || text[j] === "\r") j++;
    i = j;
  }
  return names;
}
