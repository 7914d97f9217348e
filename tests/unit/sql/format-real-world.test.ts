/**
 * `format_sql` on shapes from public test corpora (sqlglot's dialect tests, sqlfluff's dialect
 * fixtures) that the formatter used to break: the formatted SQL must still validate in its
 * dialect, and formatting it again must change nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { SqlDialect } from "../../../core/sql/dialects.js";
import { bondsToPrevious, ON_NEW_LINE, TOUCHING } from "../../../core/sql/token-bonds.js";
import type { FormatOptions, SqlToolkit } from "../../../core/sql/results.js";
import { createSqlToolkit } from "../../../core/sql/sql-toolkit.js";
import { tokenize } from "../../../core/sql/tokenizer.js";
import { loadedParser } from "./loaded-parser.js";

let tools: SqlToolkit;
beforeAll(async () => {
  tools = createSqlToolkit(await loadedParser());
});

const SEMICOLON_UPPER: Partial<FormatOptions> = { uppercase_keywords: true, add_semicolon: true };

/** Formats `sql` in `dialect`, checks the result validates and is a fixed point, returns it. */
function formatChecked(
  sql: string,
  dialect: SqlDialect,
  options: Partial<FormatOptions> = {},
): string {
  expect(tools.validate(sql, dialect).result.valid).toBe(true);
  const once = tools.format(sql, options, dialect);
  if (!once.ok) throw new Error(once.error);
  const out = once.result.formatted_sql;
  expect(tools.validate(out, dialect).result).toEqual({ valid: true, dialect });
  const twice = tools.format(out, options, dialect);
  expect(twice.ok && twice.result.formatted_sql).toBe(out);
  return out;
}

describe("format_sql keeps what the database reads as one token together", () => {
  it("keeps MySQL names that start with digits and T-SQL's empty binary 0x whole", () => {
    expect(formatChecked("CREATE TABLE 00f (1d BIGINT)", "mysql")).toBe(
      "CREATE TABLE 00f (1d BIGINT)",
    );
    expect(formatChecked('select "a" as 0_is_a_legal_identifier', "generic")).toBe(
      'select "a" as 0_is_a_legal_identifier',
    );
    expect(formatChecked("declare @v binary(16);\nset @v = 0x;", "sqlserver")).toBe(
      "declare @v binary(16);\n\nset @v = 0x;",
    );
  });

  it("keeps PostgreSQL operators of several characters (pgvector, pg_trgm, ranges) whole", () => {
    expect(
      formatChecked("SELECT * FROM items ORDER BY embedding <+> '[3,1,2]' LIMIT 5", "postgresql"),
    ).toBe("SELECT *\nFROM items\nORDER BY embedding <+> '[3,1,2]'\nLIMIT 5");
    expect(formatChecked("SELECT 'word' <% 'some word here'", "postgresql")).toBe(
      "SELECT 'word' <% 'some word here'",
    );
    expect(formatChecked("SELECT * FROM w WHERE w.r &> p.r AND w.r -|- p.r", "postgresql")).toBe(
      "SELECT *\nFROM w\nWHERE w.r &> p.r AND w.r -|- p.r",
    );
    expect(
      formatChecked(
        "CREATE OPERATOR === (LEFTARG = box, RIGHTARG = box, FUNCTION = area_equal_function)",
        "postgresql",
      ),
    ).toContain("CREATE OPERATOR ===");
    // PostgreSQL splits a trailing sign off `=-`: the usual spacing stays.
    expect(formatChecked("select a from t where b=-1", "postgresql")).toBe(
      "select a\nfrom t\nwhere b = -1",
    );
  });

  it("reads U&'…' strings and U&\"…\" names as one token", () => {
    expect(formatChecked("SELECT U&'d!0061t!+000061' UESCAPE '!' AS label", "postgresql")).toBe(
      "SELECT U&'d!0061t!+000061' UESCAPE '!' AS label",
    );
    expect(formatChecked("SELECT U&\"aaaa\"\n UESCAPE\n '!'", "postgresql")).toBe(
      "SELECT U&\"aaaa\" UESCAPE '!'",
    );
  });

  it("nests block comments in PostgreSQL and SQL Server", () => {
    const sql = "SELECT 1 /* hi hi /* foo */ ho ho */ AS bar";
    expect(formatChecked(sql, "postgresql", SEMICOLON_UPPER)).toBe(`${sql};`);
    expect(formatChecked(sql, "sqlserver")).toBe(sql);
  });

  it("reads # as a name character in SQL Server and Oracle, also with add_semicolon", () => {
    expect(
      formatChecked(
        "SELECT TestSpecialChar.Test# FROM TestSpecialChar",
        "sqlserver",
        SEMICOLON_UPPER,
      ),
    ).toBe("SELECT TestSpecialChar.Test#\nFROM TestSpecialChar;");
    expect(formatChecked("SELECT a$x#b FROM t", "oracle", SEMICOLON_UPPER)).toBe(
      "SELECT a$x#b\nFROM t;",
    );
  });

  it("keeps a string continued across lines on its own line (PostgreSQL joins only those)", () => {
    expect(formatChecked("SELECT 'foo'\n'bar'", "postgresql")).toBe("SELECT 'foo'\n'bar'");
    expect(formatChecked("SELECT 'foo'\n\n\n     'bar'", "postgresql", { indent_size: 0 })).toBe(
      "SELECT 'foo'\n'bar'",
    );
    expect(
      formatChecked(
        "COMMENT ON TABLE \"some_table\" IS E''\n'This is a valid comment style'\n'which is escaped'",
        "postgresql",
        SEMICOLON_UPPER,
      ),
    ).toBe(
      "COMMENT ON TABLE \"some_table\" IS E''\n'This is a valid comment style'\n'which is escaped';",
    );
  });

  it("keeps T-SQL variables with # whole", () => {
    expect(formatChecked("DECLARE @var#test INT = 6", "sqlserver")).toBe(
      "DECLARE @var#test INT = 6",
    );
  });

  it("keeps an Oracle database link touching its table", () => {
    expect(formatChecked("select baz.name from foo@bar baz where 1 = 1", "oracle")).toBe(
      "select baz.name\nfrom foo@bar baz\nwhere 1 = 1",
    );
  });

  it("formats in generic what only MySQL's backslash escapes close, as generic validates it", () => {
    expect(formatChecked("SELECT * FROM my_tbl WHERE b LIKE 'Spec\\'s%'", "generic")).toBe(
      "SELECT *\nFROM my_tbl\nWHERE b LIKE 'Spec\\'s%'",
    );
  });
});

describe("bondsToPrevious", () => {
  const bonded = (sql: string, bond: number) => {
    const tokens = tokenize(sql);
    const bonds = bondsToPrevious(tokens);
    return tokens.filter((_, i) => bonds[i] === bond).map((t) => t.text);
  };

  it("marks words after numbers, @names after names and operator runs PostgreSQL reads whole", () => {
    expect(bonded("SELECT 00f, t@link, a <% b, c <#> d, e !~~* f", TOUCHING)).toEqual([
      "f",
      "@link",
      "%",
      "#>",
      "~*",
    ]);
  });

  it("leaves apart what PostgreSQL splits as the tokenizer does, and anything not touching", () => {
    expect(bonded("SELECT a=-1, b<>-2, c*-3, 1 d, t @x, a < % b", TOUCHING)).toEqual([]);
  });

  it("marks a string continuing the string before it across a line break", () => {
    expect(bonded("SELECT 'a'\n  'b' 'c', 'd'\n, 'e'\n-- x\n'f'", ON_NEW_LINE)).toEqual(["'b'"]);
  });
});
