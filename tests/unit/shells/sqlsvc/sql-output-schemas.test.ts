/**
 * Issue 25: every SQL tool advertises an `outputSchema`, and every result it sends validates
 * against it: checked with the JSON Schema validator the MCP SDK itself uses, on the advertised
 * schemas, for real results of every tool with and without each option, over the SQL corpora.
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { createSqlToolkit } from "../../../../core/sql/sql-toolkit.js";
import { createToolCatalog, type ToolCatalog } from "../../../../shells/common/mcp/tool-catalog.js";
import { createSqlTools } from "../../../../shells/sqlsvc/sql-tools.js";
import { DIALECT_SQL, INVALID_SQL, PORTABLE_SQL } from "../../../fixtures/sql/corpus.js";
import { loadedParser } from "../../sql/loaded-parser.js";

const SCHEMA = { users: ["id", "name", "email"], orders: { id: "int", user_id: "int" } };

/** Each tool with no option, then with each of its options. */
const CALLS: [string, Record<string, unknown>][] = [
  ["validate_sql", {}],
  ["validate_sql", { dialect: "postgresql" }],
  ["validate_sql", { schema: SCHEMA }],
  ["format_sql", {}],
  ["format_sql", { indent_size: 4, uppercase_keywords: true, add_semicolon: true }],
  ["format_sql", { dialect: "postgresql", target_dialect: "sqlserver" }],
  ["parse_sql", {}],
  ["extract_metadata", {}],
  ["extract_metadata", { lineage: true }],
  ["security_scan", {}],
  ["lint_sql", {}],
  ["lint_sql", { fix: true }],
  ["lint_sql", { compact: true }],
  ["lint_sql", { fix: true, compact: true }],
  ["analyze_sql", {}],
];

let catalog: ToolCatalog;
const validators = new Map<string, (value: unknown) => { valid: boolean; errorMessage?: string }>();

beforeAll(async () => {
  catalog = createToolCatalog(createSqlTools(createSqlToolkit(await loadedParser())));
  const ajv = new AjvJsonSchemaValidator();
  for (const tool of catalog.listResult.tools) {
    if (tool.outputSchema !== undefined) {
      validators.set(tool.name, ajv.getValidator(tool.outputSchema as never) as never);
    }
  }
});

describe("the SQL tools' outputSchema", () => {
  it("is advertised by all seven tools, as a closed object", () => {
    expect(catalog.listResult.tools).toHaveLength(7);
    for (const tool of catalog.listResult.tools) {
      expect(tool.outputSchema, tool.name).toMatchObject({
        type: "object",
        additionalProperties: false,
      });
    }
  });

  it("says which option adds each optional field", () => {
    const properties = (name: string) =>
      catalog.listResult.tools.find((t) => t.name === name)?.outputSchema?.["properties"] as
        Record<string, { description?: string }> | undefined;
    expect(properties("lint_sql")?.["fixed_sql"]?.description).toMatch(/^Only with fix: true/);
    expect(properties("validate_sql")?.["errors"]?.description).toMatch(/^Only with schema/);
    expect(properties("format_sql")?.["target_dialect"]?.description).toMatch(
      /^Only with target_dialect/,
    );
    expect(properties("extract_metadata")?.["lineage"]?.description).toMatch(
      /^Only with lineage: true/,
    );
  });

  const inputs = [
    ...PORTABLE_SQL.slice(0, 12),
    ...Object.values(DIALECT_SQL).map((list) => list[0] as string),
    ...INVALID_SQL.slice(0, 6),
    "select a  from t   \n\n\n, b",
    "SELECT 'abc  ",
  ];

  it(
    "validates every structured result of every tool, with and without options",
    { timeout: 120_000 },
    async () => {
      let checked = 0;
      const failures: string[] = [];
      for (const sql of inputs) {
        for (const [tool, options] of CALLS) {
          const outcome = await catalog.call(tool, { sql, ...options });
          if (outcome.isError) continue;
          const verdict = validators.get(tool)?.(outcome.structured);
          checked++;
          if (verdict?.valid !== true) {
            failures.push(
              `${tool} ${JSON.stringify(options)} ${sql.slice(0, 40)}: ${verdict?.errorMessage}`,
            );
          }
        }
      }
      expect(failures).toEqual([]);
      expect(checked).toBeGreaterThan(inputs.length * 10);
    },
  );

  it("rejects a result with a field the schema does not list (the schemas are not vacuous)", () => {
    expect(validators.get("validate_sql")?.({ valid: true }).valid).toBe(true);
    expect(validators.get("validate_sql")?.({ valid: true, extra: 1 }).valid).toBe(false);
    expect(validators.get("parse_sql")?.({ statement_count: -1, statement_types: [] }).valid).toBe(
      false,
    );
  });
});
