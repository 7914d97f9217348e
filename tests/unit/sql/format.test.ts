import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { RoutingSqlParser } from "../../../adapters/sql/index.js";
import { isAgentServicesError } from "../../../core/errors.js";
import { DEFAULT_FORMAT_OPTIONS, formatSql } from "../../../core/sql/format.js";
import type { FormatOptions } from "../../../core/sql/results.js";
import { tokenize } from "../../../core/sql/tokenizer.js";
import { DIALECT_ONLY_SQL, DIALECT_SQL, PORTABLE_SQL } from "../../fixtures/sql/corpus.js";
import { loadedParser } from "./loaded-parser.js";

function formatted(sql: string, options: Partial<FormatOptions> = {}): string {
  const outcome = formatSql(sql, options);
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.result.formatted_sql;
}

describe("formatSql", () => {
  it("echoes the options with defaults filled in", () => {
    const outcome = formatSql("select 1", { indent_size: 4 });
    expect(outcome.ok && outcome.result.options).toEqual({
      ...DEFAULT_FORMAT_OPTIONS,
      indent_size: 4,
    });
  });

  it("puts each clause on its own line with a one-line body on the clause's line", () => {
    expect(
      formatted("select id,name from users where active=true", { uppercase_keywords: true }),
    ).toBe("SELECT id, name\nFROM users\nWHERE active = true");
  });

  it("gives the same result from tokens the caller already has as from the text alone", () => {
    for (const sql of [...PORTABLE_SQL, "select true, FALSE from t -- note", "SELECT a,b"]) {
      for (const options of [{}, { uppercase_keywords: true, add_semicolon: true }]) {
        expect(formatSql(sql, options, tokenize(sql)), sql).toEqual(formatSql(sql, options));
      }
    }
  });

  it("keeps boolean spelling when upper-casing keywords, and keeps an empty statement's semicolon", () => {
    expect(formatted("select true, FALSE from t", { uppercase_keywords: true })).toBe(
      "SELECT true, FALSE\nFROM t",
    );
    expect(formatted("select a from t;;", { add_semicolon: true })).toMatch(/;\s*;$/);
  });

  it("preserves keyword case unless asked to upper-case keywords", () => {
    expect(formatted("select id from users")).toBe("select id\nfrom users");
    expect(formatted("select id from users", { uppercase_keywords: true })).toBe(
      "SELECT id\nFROM users",
    );
  });

  it("keeps IS NOT NULL", () => {
    expect(formatted("SELECT a FROM t WHERE a IS NOT NULL")).toBe(
      "SELECT a\nFROM t\nWHERE a IS NOT NULL",
    );
  });

  it("indents nested blocks by indent_size", () => {
    expect(formatted("select a from t where b in (select c from d)", { indent_size: 4 })).toBe(
      "select a\nfrom t\nwhere\n    b in (\n        select c\n        from d\n    )",
    );
  });

  it("puts each statement on one line when indent_size is 0", () => {
    expect(formatted("SELECT a FROM t WHERE b = 1; SELECT 2", { indent_size: 0 })).toBe(
      "SELECT a FROM t WHERE b = 1;\n\nSELECT 2",
    );
  });

  it("ends every statement with a semicolon when add_semicolon is set, without doubling", () => {
    expect(formatted("SELECT 1; SELECT 2", { add_semicolon: true })).toBe("SELECT 1;\n\nSELECT 2;");
    expect(formatted("SELECT 1;", { add_semicolon: true })).toBe("SELECT 1;");
    expect(formatted("SELECT 1 -- done", { add_semicolon: true })).toBe("SELECT 1;\n\n-- done");
    expect(formatted("SELECT 1")).toBe("SELECT 1");
  });

  it("keeps line and block comments", () => {
    const out = formatted("select a -- first\nfrom t /* second */ where b = 1");
    expect(out).toContain("-- first");
    expect(out).toContain("/* second */");
  });

  it("keeps multi-line strings intact", () => {
    expect(formatted("select 'multi\nline' as s from t")).toContain("'multi\nline'");
  });

  it("formats dialect-specific syntax: brackets, backticks, # comments, :: casts", () => {
    expect(formatted("SELECT TOP 5 [a b] FROM t")).toBe("SELECT TOP 5 [a b]\nFROM t");
    expect(formatted("SELECT `a` FROM t # note\nWHERE x = 1")).toContain("# note\n");
    expect(formatted("select a::int from t")).toBe("select a::int\nfrom t");
  });

  it("fails with a position for text it cannot tokenise", () => {
    expect(formatSql("SELECT 'abc")).toEqual({
      ok: false,
      error: "format failed: line 1, column 8: unterminated string",
    });
    expect(formatSql("SELECT a /* open")).toEqual({
      ok: false,
      error: "format failed: line 1, column 10: unterminated comment",
    });
  });

  it("normalises whitespace of text the formatter's grammar rejects, changing nothing else", () => {
    expect(formatted(")))(((   @@@\n\n !!!")).toBe(")))((( @@@ !!!");
    expect(formatted("select  a -- note\n  from ((", { uppercase_keywords: true })).toBe(
      "SELECT a -- note\nFROM ((",
    );
  });

  it("refuses nesting deeper than it can lay out quickly, with the position", () => {
    const sql = `SELECT ${"(".repeat(150)}1${")".repeat(150)}`;
    expect(formatSql(sql)).toEqual({
      ok: false,
      error: "format failed: line 1, column 108: nesting deeper than 100 parentheses",
    });
  });

  it("rejects an indent_size outside 0..16 as invalid input", () => {
    for (const indent_size of [-1, 17, 2.5]) {
      try {
        formatSql("SELECT 1", { indent_size });
        expect.unreachable();
      } catch (error) {
        expect(isAgentServicesError(error, "invalid_input")).toBe(true);
      }
    }
  });

  it("puts each join on its own line and spreads a long select list one item per line (issue 8)", () => {
    expect(
      formatted(
        "select c.id, c.name, count(o.id) as order_count, sum(o.total) as revenue, max(o.created_at) as last_order " +
          "from customers c left outer join orders o on o.customer_id = c.id join x on x.a = c.a",
      ),
    ).toBe(
      "select\n  c.id,\n  c.name,\n  count(o.id) as order_count,\n  sum(o.total) as revenue,\n" +
        "  max(o.created_at) as last_order\nfrom customers c\nleft outer join orders o on o.customer_id = c.id\n" +
        "join x on x.a = c.a",
    );
  });

  it("breaks a spread condition before AND/OR but keeps BETWEEN … AND together (issue 8)", () => {
    expect(
      formatted("select a from t where a between 1 and 2 and b in (select c from d) or e = -1"),
    ).toBe(
      "select a\nfrom t\nwhere\n  a between 1 and 2\n  and b in (\n    select c\n    from d\n  )\n  or e = -1",
    );
  });

  it("keeps a comment on its own line, signs beside their values and `- -1` apart (issue 8)", () => {
    expect(formatted("SELECT a\n-- own line\nFROM t")).toBe("SELECT a\n-- own line\nFROM t");
    expect(formatted("select - -1, a-1, -a, x::int, arr[1], f(x) from t")).toBe(
      "select - -1, a - 1, -a, x::int, arr[1], f(x)\nfrom t",
    );
  });

  it("keeps a space before `(` where the source had one after a name (function call or not)", () => {
    expect(formatted("insert into t (a,b) values(1,2)")).toBe(
      "insert into t (a, b)\nvalues (1, 2)",
    );
    expect(formatted("select count (*), count(*) from t")).toBe(
      "select count (*), count(*)\nfrom t",
    );
  });

  it("returns comment-only input trimmed", () => {
    expect(formatted("  -- nothing\n")).toBe("-- nothing");
  });
});

describe("formatSql on arbitrary text", () => {
  const words = fc
    .array(
      fc.constantFrom(
        "SELECT",
        "from",
        "t",
        "x.y",
        "WHERE",
        "(",
        ")",
        ",",
        "'x'",
        "'a\nb'",
        "1",
        "TOP",
        "[a b]",
        "`c`",
        '"Q"',
        "-- c\n",
        "/* b */",
        ";",
        "=",
        "::",
        "AND",
        "is",
        "NOT",
        "NULL",
        "true",
        "CASE",
        "WHEN",
        "END",
        "AS",
        "JOIN",
        "ON",
        "GROUP BY",
        "UNION ALL",
        "$1",
        ":name",
        "?",
        "@v",
        "\n",
        "count(*)",
        "IN",
        "VALUES",
        "SET",
      ),
      { maxLength: 25 },
    )
    .map((parts) => parts.join(" "));

  /** Tokens apart from whitespace, case-folded, without a final `;` (add_semicolon adds one). */
  function code(sql: string): string[] {
    const tokens = tokenize(sql).filter((t) => t.kind !== "whitespace" && t.kind !== "newline");
    for (let i = tokens.length - 1; i >= 0; i--) {
      if (tokens[i]?.kind.endsWith("comment")) continue;
      if (tokens[i]?.text === ";") tokens.splice(i, 1);
      break;
    }
    return tokens.map((t) => (t.kind.endsWith("comment") ? t.text.trimEnd() : t.upper));
  }

  it("never throws and changes nothing but whitespace, keyword case and a final semicolon", () => {
    fc.assert(
      fc.property(
        words,
        fc.integer({ min: 0, max: 16 }),
        fc.boolean(),
        fc.boolean(),
        (sql, indent_size, uppercase_keywords, add_semicolon) => {
          const outcome = formatSql(sql, { indent_size, uppercase_keywords, add_semicolon });
          if (!outcome.ok) {
            expect(outcome.error).toMatch(/^format failed: line \d+, column \d+: /);
            return;
          }
          expect(code(outcome.result.formatted_sql)).toEqual(code(sql));
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});

describe("formatSql over the corpus", () => {
  let parser: RoutingSqlParser;
  beforeAll(async () => {
    parser = await loadedParser();
  });

  const corpus = [
    ...PORTABLE_SQL,
    ...Object.values(DIALECT_SQL).flat(),
    ...DIALECT_ONLY_SQL.map((c) => c.sql),
  ];
  /**
   * What the statements mean. With `uppercase_keywords` the formatter may upper-case a word that
   * is a keyword in some dialect but a name here (`DATEADD(day, …)`): unquoted names are
   * case-insensitive, so names are then compared case-insensitively.
   */
  function summary(sql: string, foldCase: boolean) {
    const result = parser.parse(sql, "generic");
    if (!result.ok) return { error: result.error.reason };
    const fold = (names: readonly string[]) =>
      foldCase ? names.map((n) => n.toLowerCase()) : names;
    return result.statements.map((s) => ({
      kind: s.kind,
      tables: fold(s.tables),
      columns: fold(s.columns),
      functions: fold(s.functions),
    }));
  }

  // Each option takes each of its values at least once; parsing (the costly part) is done once
  // per distinct output.
  const optionSets: FormatOptions[] = [
    { indent_size: 0, uppercase_keywords: false, add_semicolon: false },
    { indent_size: 2, uppercase_keywords: true, add_semicolon: true },
    { indent_size: 4, uppercase_keywords: false, add_semicolon: true },
    { indent_size: 16, uppercase_keywords: true, add_semicolon: false },
  ];

  // Every statement of the corpus with every option set: the formatter is linear and takes
  // microseconds, so there is no need to sample.
  it(
    "never changes what a statement means: same kinds, tables, columns and functions",
    { timeout: 30_000 },
    () => {
      for (const sql of corpus) {
        const before = [summary(sql, false), summary(sql, true)];
        for (const opts of optionSets) {
          const out = formatted(sql, opts);
          expect(summary(out, opts.uppercase_keywords), `${JSON.stringify(opts)} ${sql}`).toEqual(
            before[opts.uppercase_keywords ? 1 : 0],
          );
        }
      }
    },
  );

  it("is idempotent", () => {
    for (const sql of corpus) {
      for (const opts of optionSets) {
        const once = formatted(sql, opts);
        expect(formatted(once, opts), `${JSON.stringify(opts)} ${sql}`).toBe(once);
      }
    }
  });
});
