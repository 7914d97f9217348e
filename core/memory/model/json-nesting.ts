/**
 * The deepest nesting of arrays and objects a body (or an import line) of the memory API may
 * have. Its deepest valid value, a batch item's tags (`{"memories":[{"tags":["a"]}]}`), nests 3.
 */
export const MAX_JSON_NESTING = 32;

/**
 * Whether JSON text nests arrays and objects deeper than `max` (brackets inside strings do not
 * count), in one pass over the text, before `JSON.parse` sees it: 1 MB of `[` parses in
 * ~0.3 s, and its garbage took ~1 s more of the event loop every request shares, for a body the
 * schema then refuses.
 *
 * @example
 * nestsDeeperThan('{"tags":[["a"]]}', 2); // true
 * nestsDeeperThan('{"content":"[[[["}', 2); // false
 */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_NESTING): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      // A string: to its closing quote, past escaped characters.
      for (i += 1; i < text.length; i += 1) {
        const inner = text.charCodeAt(i);
        if (inner === 0x5c) i += 1;
        else if (inner === 0x22) break;
      }
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

/** The error text of a value refused by {@link nestsDeeperThan}. */
export const TOO_DEEP = `nested deeper than ${MAX_JSON_NESTING} levels of arrays and objects (no field of this API nests so deep)`;
