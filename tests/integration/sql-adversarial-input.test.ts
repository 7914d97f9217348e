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
