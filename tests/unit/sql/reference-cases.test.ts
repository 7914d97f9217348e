/**
 * The Go original's verified answers (gosqlx v1.10.0) for the tools this toolkit implements,
 * run through `createSqlToolkit`. Where `sql-tool-server.decisions.md` overrides the reference,
 * the case is listed in EXCLUDED with the reason; the decision's behaviour is tested elsewhere.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { FormatOptions, SqlToolkit } from "../../../core/sql/results.js";
import { createSqlToolkit } from "../../../core/sql/sql-toolkit.js";
import { loadedParser } from "./loaded-parser.js";

interface ReferenceCase {
  tool: string;
  args: Record<string, unknown>;
  expect: Record<string, unknown>;
  note?: string;
}

// A copy of ../shared/reference/gosqlx-v1.10.0-cases.json kept in the repository: tests read
// nothing outside it (a fresh clone has no ../shared beside it).
const CASES = JSON.parse(
  readFileSync(
    new URL("../../fixtures/reference/gosqlx-v1.10.0-cases.json", import.meta.url),
    "utf8",
  ),
) as ReferenceCase[];

const TOOLS = new Set([
  "validate_sql",
  "format_sql",
  "parse_sql",
  "extract_metadata",
  "analyze_sql",
]);

/** `tool|sql` of the cases the decisions override, with the reason. */
const EXCLUDED: Record<string, string> = {
  // Missing or empty `sql` is rejected by the MCP shell before any tool runs, with JSON-RPC
  // -32602 and our own message (decisions: "Missing `sql`, a non-string or empty `sql` …").
  "validate_sql|": "shell: empty sql is -32602",
  "validate_sql|<missing>": "shell: missing sql is -32602",
  "format_sql|": "shell: empty sql is -32602",
  "format_sql|<missing>": "shell: missing sql is -32602",
  "parse_sql|": "shell: empty sql is -32602",
  "extract_metadata|": "shell: empty sql is -32602",
  "analyze_sql|": "shell: empty sql is -32602",
  // Decisions: format_sql works from the text and fails only for text it cannot tokenise, with
  // `format failed: <reason>`; the reference parses first ("cannot format invalid SQL: …").
  "format_sql|)))((( @@@ !!!": "format failed message is ours, not 'cannot format invalid SQL'",
  // Decisions: analyze_sql's format sub-tool works from the raw text, so it succeeds here.
  "analyze_sql|SELECT FROM": "format succeeds on unparseable SQL",
  // Decisions: uppercase_keywords false preserves keyword case (the reference upper-cases).
  "analyze_sql|select id from users": "keyword case preserved: 'select id\\nfrom users'",
  // Decisions: one column per distinct (table, column) pair, so u.id and o.id give id twice.
  "extract_metadata|SELECT u.id, COUNT(o.id) FROM users u JOIN orders o ON u.id = o.user_id GROUP BY u.id":
    "columns keep id twice (u.id and o.id)",
};

function caseKey(c: ReferenceCase): string {
  return `${c.tool}|${typeof c.args["sql"] === "string" ? c.args["sql"] : "<missing>"}`;
}

type Outcome = { ok: true; result: unknown } | { ok: false; error: string };

function call(tools: SqlToolkit, c: ReferenceCase): Outcome {
  const sql = c.args["sql"] as string;
  switch (c.tool) {
    case "validate_sql": {
      const dialect = c.args["dialect"];
      return tools.validate(sql, typeof dialect === "string" ? dialect : undefined);
    }
    case "format_sql": {
      const options: Partial<FormatOptions> = {};
      if (typeof c.args["indent_size"] === "number") options.indent_size = c.args["indent_size"];
      if (typeof c.args["uppercase_keywords"] === "boolean")
        options.uppercase_keywords = c.args["uppercase_keywords"];
      if (typeof c.args["add_semicolon"] === "boolean")
        options.add_semicolon = c.args["add_semicolon"];
      return tools.format(sql, options);
    }
    case "parse_sql":
      return tools.parse(sql);
    case "extract_metadata":
      return tools.metadata(sql);
    case "analyze_sql":
      return tools.analyze(sql);
    default:
      throw new Error(`no such tool ${c.tool}`);
  }
}

/** The reference's `result_subset`: objects match listed keys, arrays match length and items. */
function expectSubset(actual: unknown, expected: unknown, path: string): void {
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).toBe(true);
    const list = actual as unknown[];
    expect(list.length, path).toBe(expected.length);
    expected.forEach((item, i) => expectSubset(list[i], item, `${path}[${i}]`));
  } else if (expected !== null && typeof expected === "object") {
    expect(actual, path).toBeTypeOf("object");
    for (const [key, value] of Object.entries(expected)) {
      expectSubset((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
    }
  } else {
    expect(actual, path).toEqual(expected);
  }
}

function check(outcome: Outcome, e: Record<string, unknown>): void {
  const rpc = e["rpc_error"] as { message?: string; message_prefix?: string } | undefined;
  if (rpc !== undefined) {
    // Tool-semantic failures are tool error results here, not JSON-RPC errors: the text is what counts.
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    if (rpc.message !== undefined) expect(outcome.error).toBe(rpc.message);
    if (rpc.message_prefix !== undefined)
      expect(outcome.error.startsWith(rpc.message_prefix)).toBe(true);
    return;
  }
  expect(outcome.ok, outcome.ok ? "" : outcome.error).toBe(true);
  if (!outcome.ok) return;
  const result = outcome.result as Record<string, unknown>;
  if (e["result_subset"] !== undefined) expectSubset(result, e["result_subset"], "result");
  for (const key of (e["keys_present"] as string[] | undefined) ?? [])
    expect(result).toHaveProperty(key);
  for (const key of (e["keys_absent"] as string[] | undefined) ?? [])
    expect(result).not.toHaveProperty(key);
  for (const [field, prefix] of Object.entries(
    (e["error_prefix"] as Record<string, string>) ?? {},
  )) {
    expect(String(result[field]).startsWith(prefix), `${field} starts with ${prefix}`).toBe(true);
  }
  for (const field of (e["nonempty"] as string[] | undefined) ?? []) {
    expect(result[field]).not.toHaveLength(0);
  }
  for (const [field, values] of Object.entries(
    (e["set_equal"] as Record<string, string[]>) ?? {},
  )) {
    const list = result[field] as string[];
    expect(new Set(list).size, `${field} has no duplicates`).toBe(list.length);
    expect([...list].sort(), field).toEqual([...values].sort());
  }
  for (const [field, values] of Object.entries(
    (e["contains_all"] as Record<string, string[]>) ?? {},
  )) {
    expect(result[field], field).toEqual(expect.arrayContaining(values));
  }
  for (const [field, min] of Object.entries((e["min"] as Record<string, number>) ?? {})) {
    expect(result[field] as number).toBeGreaterThanOrEqual(min);
  }
  if (e["errors_keys"] !== undefined) {
    expect(Object.keys((result["errors"] as object) ?? {}).sort()).toEqual(
      [...(e["errors_keys"] as string[])].sort(),
    );
  }
}

const selected = CASES.filter((c) => TOOLS.has(c.tool));

describe("reference cases of gosqlx v1.10.0", () => {
  let tools: SqlToolkit;
  beforeAll(async () => {
    tools = createSqlToolkit(await loadedParser());
  });

  it("covers the five tools and excludes only cases the decisions override", () => {
    expect(selected.length).toBe(58);
    const keys = new Set(selected.map(caseKey));
    for (const key of Object.keys(EXCLUDED)) expect(keys.has(key), key).toBe(true);
  });

  for (const c of selected) {
    const key = caseKey(c);
    if (EXCLUDED[key] !== undefined) continue;
    it(`${c.tool} ${JSON.stringify(c.args)}`, () => {
      check(call(tools, c), c.expect);
    });
  }
});
