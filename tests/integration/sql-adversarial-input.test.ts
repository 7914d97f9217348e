/**
 * Issue 8: every SQL tool, with the real WASM parsers, on adversarial text. The parser wrappers
 * (validate, parse, metadata, analyze) are counted at the WASM boundary: how many times each
 * grammar runs and how many characters it is given (the grammars cannot be counted from outside;
 * the pure passes are counted token by token in tests/unit/sql/linear-work-tools.test.ts and
 * tests/unit/sql/security/linear-work.test.ts). Text past the parsers' limits is answered
 * without running a grammar, and every tool answers 256 KiB of every pattern without throwing
 * (no stack overflow, so no -32603).
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  LibpgQuerySqlParser,
  PolyglotSqlParser,
  RoutingSqlParser,
} from "../../adapters/sql/index.js";
import type { SqlDialect } from "../../core/sql/dialects.js";
import { PARSE_LIMITS } from "../../core/sql/parse-limits.js";
import type { SqlParseResult, SqlSyntaxError } from "../../core/ports/sql-parser.js";
import type { SqlToolkit } from "../../core/sql/results.js";
import { createSqlToolkit } from "../../core/sql/sql-toolkit.js";
import { adversarialSql } from "../fixtures/sql/adversarial.js";
import { McpProtocolError } from "../../shells/common/mcp/mcp-protocol-error.js";
import { createToolCatalog, type ToolCatalog } from "../../shells/common/mcp/tool-catalog.js";
import { MAX_SQL_BYTES } from "../../shells/sqlsvc/sql-tool-params.js";
import { createSqlTools } from "../../shells/sqlsvc/sql-tools.js";

const KIB = 1024;

/** Counts each grammar's runs and the characters handed to it. */
class CountingPostgres extends LibpgQuerySqlParser {
  calls = 0;
  chars = 0;
  override parse(sql: string, dialect?: SqlDialect): SqlParseResult {
    this.calls++;
    this.chars += sql.length;
    return super.parse(sql, dialect);
  }
  override check(sql: string, dialect?: SqlDialect): SqlSyntaxError | undefined {
    this.calls++;
    this.chars += sql.length;
    return super.check(sql, dialect);
  }
}

class CountingPolyglot extends PolyglotSqlParser {
  calls = 0;
  chars = 0;
  override parse(sql: string, dialect: SqlDialect): SqlParseResult {
    this.calls++;
    this.chars += sql.length;
    return super.parse(sql, dialect);
  }
  override check(sql: string, dialect: SqlDialect): SqlSyntaxError | undefined {
    this.calls++;
    this.chars += sql.length;
    return super.check(sql, dialect);
  }
}

describe("every SQL tool with the real parsers on adversarial input (issue 8)", () => {
  const postgres = new CountingPostgres();
  const polyglot = new CountingPolyglot();
  let tools: SqlToolkit;
  beforeAll(async () => {
    const parser = new RoutingSqlParser({ postgres, polyglot });
    await parser.load();
    tools = createSqlToolkit(parser);
  });

  // The bound on grammar runs does not depend on the size: small texts keep this file fast.
  const parsed = adversarialSql(KIB);

  for (const name of Object.keys(parsed)) {
    it(
      `runs each grammar at most once per dialect, on the text only, for "${name}"`,
      { timeout: 30_000 },
      () => {
        const sql = parsed[name] as string;
        const runs: [string, () => unknown][] = [
          ["validate", () => tools.validate(sql)],
          ["parse", () => tools.parse(sql)],
          ["metadata", () => tools.metadata(sql)],
          ["analyze", () => tools.analyze(sql)],
          ...(["mysql", "sqlserver", "postgresql"] as const).map((d): [string, () => unknown] => [
            `validate ${d}`,
            () => tools.validate(sql, d),
          ]),
        ];
        for (const [tool, run] of runs) {
          postgres.calls = postgres.chars = polyglot.calls = polyglot.chars = 0;
          // Never a thrown error (the shell would answer -32603).
          expect(run, tool).not.toThrow();
          const calls = postgres.calls + polyglot.calls;
          // generic: PostgreSQL, polyglot's generic grammar, five dialects (+1: a failed check
          // asks the parse where the error is).
          expect(calls, `${tool}: grammar runs`).toBeLessThanOrEqual(8);
          expect(postgres.chars + polyglot.chars, `${tool}: characters parsed`).toBeLessThanOrEqual(
            8 * sql.length,
          );
        }
      },
    );
  }

  it("answers text past the parsers' limits without running a grammar", { timeout: 30_000 }, () => {
    const deep: [string, string, RegExp][] = [
      ["parentheses", `SELECT ${"(".repeat(300)}1${")".repeat(300)}`, /nesting deeper than 200/],
      [
        "CASE nesting",
        `SELECT ${"CASE WHEN a THEN ".repeat(300)}1${" END".repeat(300)}`,
        /nesting deeper than 200/,
      ],
      ["operator chains", `SELECT 1${"+1".repeat(1500)}`, /more than 1000 operators/],
      [
        "UNION chains",
        `SELECT a FROM t${" UNION SELECT a FROM t".repeat(600)}`,
        /more than 500 UNION/,
      ],
      ["statements", "SELECT 1; ".repeat(6000), /more than 5000 statements/],
      [
        "JOIN chains (issue 26)",
        `SELECT a FROM t${" JOIN u ON 1=1".repeat(2100)}`,
        /more than 2000 JOINs in one statement/,
      ],
      [
        "dotted names (issue 26)",
        `SELECT ${"a.".repeat(600)}a FROM t`,
        /a name of more than 500 dotted parts/,
      ],
      ["an unterminated comment", "SELECT 1 /* open", /unterminated comment/],
    ];
    for (const [what, sql, reason] of deep) {
      postgres.calls = polyglot.calls = 0;
      const validated = tools.validate(sql).result;
      expect(validated.valid, what).toBe(false);
      expect(validated.error, what).toMatch(reason);
      expect(tools.parse(sql), what).toMatchObject({
        ok: false,
        error: expect.stringMatching(reason),
      });
      expect(tools.metadata(sql).ok, what).toBe(false);
      expect(tools.analyze(sql).result.errors?.parse, what).toMatch(reason);
      expect(postgres.calls + polyglot.calls, `${what}: grammar runs`).toBe(0);
    }
  });

  it(
    "parses text right at the limits (the limits cost real SQL nothing)",
    { timeout: 30_000 },
    () => {
      const atLimit = [
        `SELECT ${"(".repeat(PARSE_LIMITS.depth)}1${")".repeat(PARSE_LIMITS.depth)}`,
        `SELECT 1${"+1".repeat(PARSE_LIMITS.chain - 1)}`,
        `SELECT * FROM t WHERE ${"a = 1 OR ".repeat(PARSE_LIMITS.conditions - 1)}b = 2`,
        `SELECT a FROM t${" UNION SELECT a FROM t".repeat(PARSE_LIMITS.setOperations)}`,
        "SELECT 1; ".repeat(PARSE_LIMITS.statements),
        `SELECT ${"a.".repeat(PARSE_LIMITS.nameParts)}a FROM t`,
      ];
      for (const sql of atLimit) {
        expect(tools.validate(sql).result.valid, sql.slice(0, 40)).toBe(true);
        expect(tools.metadata(sql).ok, sql.slice(0, 40)).toBe(true);
      }
    },
  );

  // Not a timing assertion: a quadratic path would run for hours, so finishing at all is the
  // check; the timeout only absorbs a slow, shared machine.
  for (const [name, sql] of Object.entries(adversarialSql(256 * KIB))) {
    it(
      `answers 256 KiB of "${name}" with every tool, without throwing`,
      { timeout: 120_000 },
      () => {
        expect(tools.validate(sql).result).toHaveProperty("valid");
        for (const outcome of [tools.parse(sql), tools.metadata(sql), tools.format(sql)]) {
          expect(typeof outcome.ok).toBe("boolean");
        }
        const scan = tools.scan(sql).result;
        expect(scan.total_count).toBe(scan.findings.length);
        const lint = tools.lint(sql).result;
        expect(lint.violation_count).toBe(lint.violations.length);
        expect(tools.analyze(sql).result).toHaveProperty("security");
      },
    );
  }
});

/**
 * The shapes of the SQL faults of issue 26 at 256 KiB (the -32603 answers found by a fuzz run):
 * long JOIN chains for extract_metadata, and fixes over unterminated strings and backslash
 * escapes for lint_sql with fix: true (formerly fix_sql).
 */
function issue26Sql(size: number): Record<string, string> {
  const fill = (unit: string): string => unit.repeat(Math.ceil(size / unit.length));
  const joins = (n: number) =>
    "SELECT t0.a FROM t0" +
    Array.from({ length: n }, (_, i) => ` JOIN t${i + 1} ON t${i}.id = t${i + 1}.id`).join("");
  let chain = "";
  for (let n = 1000; (chain = joins(n)).length < size; n += 1000);
  return {
    "JOIN chain": chain,
    "short JOIN chain": `SELECT a FROM t${fill(" JOIN u ON 1=1")}`,
    "JOIN chain at the limit": joins(PARSE_LIMITS.joins),
    "unterminated string with trailing blanks": `SELECT 'abc${fill("  ")}`,
    "blanks then an unterminated string": `${fill("SELECT 1   \n")}SELECT 'abc  `,
    "backslash-escaped quotes": fill("SELECT 'it\\'s (or not)'   \n"),
    "backslash quotes, unterminated": `SELECT '${fill("a\\'  ")}`,
  };
}

describe("no input of the adversarial corpora is a server fault through the MCP tools (issue 26)", () => {
  let catalog: ToolCatalog;
  beforeAll(async () => {
    const parser = new RoutingSqlParser();
    await parser.load();
    catalog = createToolCatalog(createSqlTools(createSqlToolkit(parser)), {
      onServerFault: (error) => {
        throw error;
      },
    });
  });

  /** Every tool, and every option of each, as a call on `sql`. */
  const calls = (sql: string): [string, Record<string, unknown>][] => [
    ["validate_sql", { sql }],
    ["validate_sql", { sql, dialect: "mysql", schema: { t: ["a", "id"], t0: ["a", "id"] } }],
    ["format_sql", { sql }],
    ["format_sql", { sql, dialect: "mysql", target_dialect: "postgresql" }],
    ["parse_sql", { sql }],
    ["extract_metadata", { sql, lineage: true }],
    ["security_scan", { sql }],
    ["lint_sql", { sql, fix: true, compact: true }],
    ["lint_sql", { sql, dialect: "mysql", fix: true }],
    ["analyze_sql", { sql }],
  ];

  const inputs = { ...adversarialSql(256 * KIB), ...issue26Sql(256 * KIB) };
  for (const [name, text] of Object.entries(inputs)) {
    // The longest `sql` the tools take (all these texts are ASCII: a character is a byte).
    const sql = text.slice(0, MAX_SQL_BYTES);
    it(
      `answers 256 KiB of "${name}" with a result or a tool error, never -32603`,
      { timeout: 300_000 },
      async () => {
        for (const [tool, args] of calls(sql)) {
          let outcome: unknown;
          try {
            outcome = await catalog.call(tool, args);
          } catch (error) {
            // Whitespace alone is no `sql` (-32602 naming it): a clear error, not a fault.
            if (error instanceof McpProtocolError && error.code === -32602 && !/\S/.test(sql)) {
              continue;
            }
            const code = error instanceof McpProtocolError ? error.code : "thrown";
            throw new Error(
              `${tool} ${JSON.stringify(Object.keys(args))}: ${String(code)}: ${String(error)}`,
            );
          }
          expect(outcome, tool).toHaveProperty("isError");
        }
      },
    );
  }

  it("extracts the metadata of a 256 KiB JOIN chain within the limit, or names the limit", async () => {
    const { "JOIN chain": chain, "JOIN chain at the limit": atLimit } = issue26Sql(256 * KIB);
    const over = await catalog.call("extract_metadata", {
      sql: (chain as string).slice(0, MAX_SQL_BYTES),
    });
    expect(over).toMatchObject({
      isError: true,
      text: expect.stringMatching(
        /^parse failed: line 1, column \d+: more than 2000 JOINs in one statement/,
      ),
    });
    const within = await catalog.call("extract_metadata", { sql: atLimit as string });
    expect(within.isError).toBe(false);
    if (!within.isError) {
      expect((within.structured as { tables: string[] }).tables).toHaveLength(
        PARSE_LIMITS.joins + 1,
      );
    }
  });

  it("fixes what it safely can in SELECT 'abc  and in backslash-escaped text (issue 26)", async () => {
    expect(await catalog.call("lint_sql", { sql: "SELECT 'abc  ", fix: true })).toMatchObject({
      isError: false,
      structured: { fixed_sql: "SELECT 'abc  ", changed: false },
    });
    const escaped = await catalog.call("lint_sql", {
      sql: "select 'it\\'s (or not)'   \nfrom t",
      dialect: "mysql",
      fix: true,
    });
    expect(escaped).toMatchObject({
      isError: false,
      structured: { fixed_sql: "SELECT 'it\\'s (or not)'\nFROM t", changed: true },
    });
  });
});
