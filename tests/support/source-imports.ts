import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * Every `.ts` file under `dir`, recursively.
 *
 * @example
 * sourceFiles(join(root, "shells")); // ["/…/shells/common/bearer-auth.ts", …]
 */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/**
 * Relative specifiers of static imports (type-only ones too), re-exports and dynamic `import()`
 * calls in `source`.
 *
 * @example
 * relativeImports('import { a } from "./a.js";'); // ["./a.js"]
 */
export function relativeImports(source: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)"(\.{1,2}\/[^"]+)"/g;
  return [...source.matchAll(pattern)].map((match) => match[1] ?? "");
}

/**
 * The files `file` imports (relative imports only), as absolute `.ts` paths.
 *
 * @example
 * importedFiles("/repo/core/sql/format.ts"); // ["/repo/core/sql/token.ts", …]
 */
export function importedFiles(file: string): string[] {
  return relativeImports(readFileSync(file, "utf8")).map((specifier) =>
    resolve(dirname(file), specifier).replace(/\.js$/, ".ts"),
  );
}
