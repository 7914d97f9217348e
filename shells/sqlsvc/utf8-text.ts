/**
 * The text of a file's bytes, which must be UTF-8: decoding anything else would put U+FFFD in
 * place of each byte that is not, and `sqlsvc fix` or `format --write` would then write those
 * back (a Latin-1 `'café'` became `'caf�'` on disk). A leading byte order mark is kept.
 *
 * @throws Error `not UTF-8 text (byte 0xE9 at line 1, column 11); convert it to UTF-8 first`
 * @example
 * utf8Text(await readFile("q.sql")); // "SELECT 1;\n"
 */
export function utf8Text(bytes: Uint8Array): string {
  try {
    return FATAL.decode(bytes);
  } catch {
    throw new Error(`not UTF-8 text (${firstBadByte(bytes)}); convert it to UTF-8 first`);
  }
}

const FATAL = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const LENIENT = new TextDecoder("utf-8", { ignoreBOM: true });
const REPLACEMENT = [0xef, 0xbf, 0xbd];

/** Where the first byte that is not UTF-8 is: `byte 0xE9 at line 1, column 11`. */
function firstBadByte(bytes: Uint8Array): string {
  const text = LENIENT.decode(bytes);
  const encoder = new TextEncoder();
  for (let at = text.indexOf("\uFFFD"); at !== -1; at = text.indexOf("\uFFFD", at + 1)) {
    const prefix = text.slice(0, at);
    const offset = encoder.encode(prefix).length;
    // A U+FFFD the file itself holds is valid UTF-8: look on.
    if (REPLACEMENT.every((byte, i) => bytes[offset + i] === byte)) continue;
    const line = prefix.split("\n").length;
    const column = [...prefix.slice(prefix.lastIndexOf("\n") + 1)].length + 1;
    const hex = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, "0");
    return `byte 0x${hex} at line ${line}, column ${column}`;
  }
  return "an incomplete character";
}
