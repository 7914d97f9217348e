import { beforeAll, describe, expect, it } from "vitest";
import type { ParsedStatement, SqlParser, SqlSyntaxError } from "../../core/ports/sql-parser.js";
import type { SqlDialect } from "../../core/sql/dialects.js";
import { INVALID_SQL, PORTABLE_SQL } from "../fixtures/sql/corpus.js";

/**
 * For the tests that run the whole corpus through one dialect: up to 0.6 s measured on 2 cores
 * at load ~8 plus two busy loops (the first call into a grammar warms it up).
 */
const CORPUS_TIMEOUT_MS = 30_000;

/** How each dialect quotes an identifier (MySQL reads `"x"` as a string by default). */
const QUOTE: Record<SqlDialect, (name: string) => string> = {
  generic: (n) => `"${n}"`,
  postgresql: (n) => `"${n}"`,
  sqlite: (n) => `"${n}"`,
  oracle: (n) => `"${n}"`,
  snowflake: (n) => `"${n}"`,
  mysql: (n) => `\`${n}\``,
  sqlserver: (n) => `[${n}]`,
};

/** What a parser is known not to do, with the reason at the call site. */
export interface SqlParserContractOptions {
  /**
   * Statements of the invalid corpus this parser accepts by design (a lenient grammar whose
   * checks live in a wrapper). They must still parse without throwing, and a rejection of them
   * must still be positioned inside the text.
   */
  readonly lenientAbout?: readonly string[];
}

/**
 * The behaviour every {@link SqlParser} must have, in each dialect it speaks (see the port's doc
 * comment): the neutral model of a statement (kind, tables, columns, functions as written, each
 * once, in first-seen order), syntax errors as data with a position inside the input, empty
 * input as an error, and `check` (when there is one) agreeing with `parse`. Runs against each
 * real parser (libpg-query, polyglot, routing); the project has no fake SQL parser.
 *
 * @example
 * describeSqlParserContract("LibpgQuerySqlParser", ["postgresql"], () => new LibpgQuerySqlParser());
 */
export function describeSqlParserContract(
  name: string,
  dialects: readonly SqlDialect[],
  make: () => SqlParser,
  options: SqlParserContractOptions = {},
): void {
  const mustReject = INVALID_SQL.filter((sql) => !(options.lenientAbout ?? []).includes(sql));
  describe(`SqlParser contract: ${name}`, () => {
    let parser: SqlParser;

    beforeAll(async () => {
      parser = make();
      await parser.load();
    });

    it("loads idempotently", async () => {
      await expect(parser.load()).resolves.toBeUndefined();
      expect(parser.parse("SELECT 1", dialects[0] as SqlDialect).ok).toBe(true);
    });

    for (const dialect of dialects) {
      describe(`in ${dialect}`, () => {
        /** The one statement `sql` parses to (fails the test if it does not parse). */
        function only(sql: string): ParsedStatement {
          const result = parser.parse(sql, dialect);
          if (!result.ok) throw new Error(`expected ${sql} to parse: ${result.error.reason}`);
          expect(result.statements).toHaveLength(1);
          return result.statements[0] as ParsedStatement;
        }

        it(
          "accepts every portable statement of the corpus",
          () => {
            expect(PORTABLE_SQL.filter((sql) => !parser.parse(sql, dialect).ok)).toEqual([]);
          },
          CORPUS_TIMEOUT_MS,
        );

        it("gives the neutral model of a statement, and nothing vendor-specific", () => {
          const statement = only("SELECT id FROM users");
          expect(JSON.parse(JSON.stringify(statement))).toEqual({
            kind: "Select",
            tables: ["users"],
            columns: ["id"],
            functions: [],
          });
        });

        it.each([
          ["SELECT 1 UNION SELECT 2", "SetOperation"],
          ["INSERT INTO t (a) VALUES (1)", "Insert"],
          ["UPDATE t SET a = 1", "Update"],
          ["DELETE FROM t WHERE a = 1", "Delete"],
          ["CREATE TABLE t (id INT)", "CreateTable"],
          ["CREATE INDEX i ON t (a)", "CreateIndex"],
          ["CREATE VIEW v AS SELECT 1", "CreateView"],
          ["DROP TABLE t", "Drop"],
        ])("names the kind of %s %s", (sql, kind) => {
          expect(only(sql).kind).toBe(kind);
        });

        it("lists tables once each, in first-seen order, qualified names whole, CTEs left out", () => {
          const s = only(
            "WITH recent AS (SELECT id FROM orders) SELECT * FROM recent JOIN sales.users u ON recent.id = u.id JOIN orders o ON o.id = u.id",
          );
          expect(s.tables).toEqual(["orders", "sales.users"]);
        });

        it("keeps the case of names as written and removes their quotes", () => {
          const s = only(`SELECT ${QUOTE[dialect]("Full Name")} FROM ${QUOTE[dialect]("Users")}`);
          expect(s.tables).toEqual(["Users"]);
          expect(s.columns).toEqual(["Full Name"]);
        });

        it("lists one column per distinct (table, column) pair, in first-seen order, no *", () => {
          const s = only(
            "SELECT u.id, o.id, u.id, * FROM users u JOIN orders o ON u.id = o.user_id",
          );
          expect(s.columns).toEqual(["id", "id", "user_id"]);
        });

        it("lists functions as written, each once, in first-seen order", () => {
          const s = only("SELECT COUNT(*), Coalesce(a, b), COUNT(y), my_Func(z) FROM t");
          expect(s.functions).toEqual(["COUNT", "Coalesce", "my_Func"]);
        });

        it("keeps each spelling of a function as written", () => {
          const s = only("SELECT count(x), Count(y), COUNT(z), count(w) FROM t");
          expect(s.functions).toEqual(["count", "Count", "COUNT"]);
        });

        it("parses each statement of a script", () => {
          const result = parser.parse("SELECT 1;\nDELETE FROM t;\nDROP TABLE t", dialect);
          expect(result.ok && result.statements.map((s) => s.kind)).toEqual([
            "Select",
            "Delete",
            "Drop",
          ]);
        });

        it("treats empty input as an error at line 1, column 1", () => {
          for (const sql of ["", "   ", "\n\t\n"]) {
            expect(parser.parse(sql, dialect), JSON.stringify(sql)).toEqual({
              ok: false,
              error: { line: 1, column: 1, reason: "empty input: no SQL statement found" },
            });
          }
        });

        it(
          "rejects every invalid statement of the corpus, without throwing, positioned inside it",
          () => {
            expect(mustReject.length).toBeGreaterThan(INVALID_SQL.length / 2);
            for (const sql of INVALID_SQL) {
              const result = parser.parse(sql, dialect);
              if (mustReject.includes(sql)) expect(result.ok, sql).toBe(false);
              if (!result.ok) expectInside(sql, result.error);
            }
          },
          CORPUS_TIMEOUT_MS,
        );

        it("reports the line and column (in characters) of the offending token", () => {
          expect(parser.parse("SELECT 'ü', é\nFROM t WHERE x = = 1", dialect)).toMatchObject({
            ok: false,
            error: { line: 2, column: 18 },
          });
        });

        it(
          "gives the verdict parse gives from check, when it has one",
          () => {
            if (parser.check === undefined) return;
            for (const sql of [...PORTABLE_SQL, ...INVALID_SQL, "", "SELECT 1; SELECT FROM"]) {
              const checked = parser.check(sql, dialect);
              expect(checked === undefined, `${dialect}: ${sql}`).toBe(
                parser.parse(sql, dialect).ok,
              );
              if (checked !== undefined) expectInside(sql, checked);
            }
          },
          CORPUS_TIMEOUT_MS,
        );
      });
    }
  });
}

/** A readable reason without a position in it, at a line and column inside `sql`. */
function expectInside(sql: string, error: SqlSyntaxError): void {
  const lines = sql.split("\n");
  expect(error.line, sql).toBeGreaterThanOrEqual(1);
  expect(error.line, sql).toBeLessThanOrEqual(lines.length);
  expect(error.column, sql).toBeGreaterThanOrEqual(1);
  // One past the end of the line is where "unexpected end of input" points.
  expect(error.column, sql).toBeLessThanOrEqual([...(lines[error.line - 1] ?? "")].length + 1);
  expect(error.reason, sql).not.toBe("");
  expect(error.reason, sql).not.toMatch(/\b(?:line|column|position)\s*\d/i);
}
