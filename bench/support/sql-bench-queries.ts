import { readFileSync } from "node:fs";

/**
 * The three queries of the side-by-side benchmark against the Go original:
 * `tests/fixtures/reference/sql-bench-queries.sql`, split at its `-- small|medium|large` headers,
 * each keyed by its label in `labels`.
 *
 * @example
 * sqlBenchQueries()["1 line"]; // "SELECT id, name FROM users WHERE id = 42"
 * sqlBenchQueries({ small: "1", medium: "5", large: "60" })["5"];
 */
export function sqlBenchQueries(
  labels: Readonly<Record<string, string>> = {
    small: "1 line",
    medium: "5 lines",
    large: "60 lines",
  },
): Record<string, string> {
  const file = readFileSync(
    new URL("../../tests/fixtures/reference/sql-bench-queries.sql", import.meta.url),
    "utf8",
  );
  const out: Record<string, string> = {};
  for (const part of file.split(/^-- (?=small|medium|large)/m).slice(1)) {
    const name = part.slice(0, part.indexOf("\n")).trim();
    const body = part
      .slice(part.indexOf("\n") + 1)
      .replace(/\n;\s*$/, "")
      .trim();
    out[labels[name] ?? name] = body;
  }
  return out;
}
