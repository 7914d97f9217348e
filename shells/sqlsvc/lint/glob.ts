/**
 * A file glob as a regular expression over `/`-separated relative paths: `*` matches within one
 * path segment, `**` any number of segments, `?` one character. A glob without `/` matches the
 * name at any depth (`*.gen.sql`), and a glob ending in `/` matches everything under that
 * directory (`build/`), as in `.gitignore`. The expression is anchored and has no nested
 * quantifiers, so matching is linear in the path length.
 *
 * @example
 * globToRegExp("migrations/**").test("migrations/2024/01.sql"); // true
 * globToRegExp("*.gen.sql").test("a/b/c.gen.sql"); // true
 */
export function globToRegExp(glob: string): RegExp {
  let pattern = glob.trim().replace(/^\.\//, "");
  if (pattern.endsWith("/")) pattern += "**";
  if (!pattern.includes("/")) pattern = `**/${pattern}`;
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      // `**/` is zero or more whole segments; a final `**` is anything.
      out += slash ? "(?:[^/]*/)*" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}
