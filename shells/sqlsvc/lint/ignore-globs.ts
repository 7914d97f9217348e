import ignorePackage from "ignore";

/** The package is CommonJS with a `default` alias: this reads the same under tsc and Node. */
const ignore = ignorePackage.default;

/**
 * The `ignore` globs of one configuration, read with .gitignore's rules by the `ignore` package
 * (the matcher ESLint and Prettier use for their ignore files): a pattern without a slash matches
 * a name at any depth (`*.gen.sql`, `vendor/`), a leading `/` anchors it to the configuration's
 * directory, a trailing `/` matches a directory and everything under it, `**` spans directories,
 * `[ab]` is a character class, and `!pattern` takes back an earlier match (the last match wins).
 *
 * @example
 * const globs = ignoreGlobs(["build/", "migrations/[0-9]*.sql", "!migrations/0001.sql"]);
 * globs.ignores("build/x.sql"); // true
 * globs.ignores("migrations/0001.sql"); // false
 */
export interface IgnoreGlobs {
  readonly patterns: readonly string[];
  /** `path` is relative to the configuration's directory, with `/` separators. */
  ignores(path: string): boolean;
}

/**
 * The matcher for `patterns` (see {@link IgnoreGlobs}).
 *
 * @example
 * ignoreGlobs(["*.gen.sql"]).ignores("a/b/c.gen.sql"); // true
 */
export function ignoreGlobs(patterns: readonly string[]): IgnoreGlobs {
  const matcher = ignore().add(patterns.map((p) => p.trim()));
  return {
    patterns,
    ignores: (path) => path !== "" && !path.startsWith("../") && matcher.ignores(path),
  };
}

/** `{a,b}` alternatives, which .gitignore does not have (they would match nothing). */
const BRACES = /\{[^}]*,[^}]*\}/;

/**
 * Why `pattern` cannot be an ignore glob, or undefined when it can: `{a,b}` braces are not
 * gitignore syntax, and a pattern that silently matches nothing helps nobody.
 *
 * @example
 * ignoreGlobProblem("{a,b}.sql"); // "braces are not gitignore syntax: write one pattern per alternative"
 */
export function ignoreGlobProblem(pattern: string): string | undefined {
  if (pattern.trim() === "") return "expected a glob, got an empty string";
  if (BRACES.test(pattern))
    return "braces are not gitignore syntax: write one pattern per alternative";
  return undefined;
}
