import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lintSql } from "../../../../core/sql/lint/index.js";

/** Violations of one rule as `line:column message`. */
function hits(sql: string, rule: string): string[] {
  return lintSql(sql)
    .violations.filter((v) => v.rule === rule)
    .map((v) => `${v.line}:${v.column} ${v.message}`);
}

describe("lintSql", () => {
  it("returns no violations for empty input", () => {
    expect(lintSql("")).toEqual({ violation_count: 0, violations: [] });
  });

  it("sorts violations by line, then column, then rule", () => {
    const result = lintSql("select id from users   \n");
    expect(result.violations.map((v) => `${v.line}:${v.column} ${v.rule}`)).toEqual([
      "1:1 L007",
      "1:11 L007",
      "1:21 L001",
      "1:21 L010",
    ]);
    expect(result.violation_count).toBe(4);
  });
});

describe("L001 TrailingWhitespace", () => {
  it("reports the column after the last visible character, in code points", () => {
    expect(hits("SELECT '😀' \nFROM t", "L001")).toEqual(["1:11 Line has trailing whitespace"]);
  });

  it("reports a trailing tab and a line ending in CRLF after spaces", () => {
    expect(hits("SELECT 1\t\r\nFROM t  \r\n", "L001")).toEqual([
      "1:9 Line has trailing whitespace",
      "2:7 Line has trailing whitespace",
    ]);
  });

  it("ignores spaces before a line break inside a multi-line string", () => {
    expect(hits("SELECT 'a   \nb' FROM t", "L001")).toEqual([]);
  });

  it("does not treat a non-breaking character at the end as whitespace", () => {
    expect(hits("SELECT à", "L001")).toEqual([]);
  });
});

describe("L002 MixedIndentation", () => {
  it("reports tabs and spaces mixed in one indent", () => {
    expect(hits("\t SELECT 1", "L002")).toEqual(["1:1 Line mixes tabs and spaces for indentation"]);
  });

  it("reports a line indented differently from the first indented line", () => {
    expect(hits("SELECT\n    a,\n\tb\nFROM t", "L002")).toEqual([
      "3:1 Inconsistent indentation: file uses both tabs and spaces",
    ]);
  });

  it("ignores indentation inside a multi-line string", () => {
    expect(hits("SELECT\n    'a\n\tb'\nFROM t", "L002")).toEqual([]);
  });
});

describe("L003 ConsecutiveBlankLines", () => {
  it("reports a run of blank lines at its first line", () => {
    expect(hits("SELECT 1\n\n  \n\nFROM t", "L003")).toEqual([
      "2:1 Multiple consecutive blank lines found",
    ]);
  });

  it("accepts one blank line, and one final newline after a blank line", () => {
    expect(hits("SELECT 1;\n\nSELECT 2;\n", "L003")).toEqual([]);
    expect(hits("SELECT 1\n\n", "L003")).toEqual([]);
  });

  it("reports blank lines at the end of the input with its own message", () => {
    expect(hits("SELECT 1\n\n\n", "L003")).toEqual([
      "2:1 File ends with multiple consecutive blank lines",
    ]);
  });

  it("ignores blank lines inside strings and block comments", () => {
    expect(hits("SELECT '\n\n\n' /*\n\n\n*/", "L003")).toEqual([]);
  });
});

describe("L004 IndentationDepth", () => {
  it("counts a tab as four spaces", () => {
    expect(hits("SELECT\n\t\t\t\t\tx", "L004")).toEqual([
      "2:1 Indentation depth exceeds maximum: 5 levels (max 4)",
    ]);
  });

  it("accepts exactly four levels and skips whitespace-only lines", () => {
    expect(hits(`SELECT\n${" ".repeat(16)}x\n${" ".repeat(40)}\n`, "L004")).toEqual([]);
  });
});

describe("L005 LongLines", () => {
  it("counts characters, not UTF-8 bytes", () => {
    expect(hits(`SELECT '${"日".repeat(90)}'`, "L005")).toEqual([]);
    expect(hits(`SELECT '${"日".repeat(93)}'`, "L005")).toEqual([
      "1:101 Line exceeds maximum length",
    ]);
  });

  it("exempts comment-only lines", () => {
    expect(hits(`-- ${"x".repeat(120)}\n/* ${"y".repeat(120)} */`, "L005")).toEqual([]);
  });

  it("names the current length in the suggestion", () => {
    const [v] = lintSql("x".repeat(130)).violations.filter((x) => x.rule === "L005");
    expect(v?.suggestion).toBe(
      "Split this line into multiple lines (current: 130 chars, max: 100)",
    );
  });
});

describe("L006 ColumnAlignment", () => {
  it("reports the item off the majority indentation", () => {
    expect(hits("SELECT a,\n  b,\n    c,\n  d\nFROM t", "L006")).toEqual([
      "3:5 Column not aligned with other columns",
    ]);
  });

  it("ignores continuation lines of one expression", () => {
    const sql =
      "SELECT\n    a,\n    CASE\n        WHEN b THEN 1\n        ELSE 2\n    END AS c,\n    d\nFROM t";
    expect(hits(sql, "L006")).toEqual([]);
  });

  it("checks nested select lists separately", () => {
    const sql =
      "SELECT\n    a,\n    (SELECT\n        x,\n        y,\n      z\n     FROM u) AS b,\n    c\nFROM t";
    expect(hits(sql, "L006")).toEqual(["6:7 Column not aligned with other columns"]);
  });

  it("accepts items aligned after SELECT DISTINCT", () => {
    expect(
      hits("SELECT DISTINCT id,\n                name,\n                email\nFROM users", "L006"),
    ).toEqual([]);
  });
});

describe("L007 KeywordCase", () => {
  it("reports each lower-case keyword with its upper-case form", () => {
    expect(hits("select id from t", "L007")).toEqual([
      "1:1 Keyword 'select' should be uppercase: 'SELECT'",
      "1:11 Keyword 'from' should be uppercase: 'FROM'",
    ]);
  });

  it("ignores keywords in strings, comments and quoted identifiers", () => {
    expect(hits(`SELECT 'select' AS "from" -- where\nFROM t /* order by */`, "L007")).toEqual([]);
  });

  it("ignores a keyword used as the field of a qualified name", () => {
    expect(hits("SELECT t.order FROM t", "L007")).toEqual([]);
  });

  it("ignores words that are column names to the tokenizer (key, value, row_number)", () => {
    expect(hits("SELECT key, value, row_number() OVER () FROM t", "L007")).toEqual([]);
  });
});

describe("L008 CommaPlacement", () => {
  it("reports leading commas at their column", () => {
    expect(hits("SELECT a\n     , b\nFROM t", "L008")).toEqual([
      "2:6 Leading comma found, but trailing comma style is preferred",
    ]);
  });

  it("ignores commas in strings and comments and a line holding only a comma", () => {
    expect(hits("SELECT a, ',b'\n-- , c\n,\nFROM t", "L008")).toEqual([]);
  });
});

describe("L009 AliasingConsistency", () => {
  it("reports mixed aliasing at the SELECT that owns the FROM clause", () => {
    expect(hits("SELECT 1\nFROM users u\nJOIN orders ON u.id = orders.user_id", "L009")).toEqual([
      "1:1 Some tables have aliases while others don't",
    ]);
  });

  it("accepts consistent aliases with or without AS, and no aliases at all", () => {
    expect(hits("SELECT u.id FROM users u JOIN orders AS o ON u.id = o.user_id", "L009")).toEqual(
      [],
    );
    expect(
      hits("SELECT users.id FROM users JOIN orders ON users.id = orders.user_id", "L009"),
    ).toEqual([]);
  });

  it("counts an aliased derived table as aliased and checks subqueries on their own", () => {
    expect(
      hits("SELECT s.a FROM (SELECT a FROM b) AS s JOIN c AS c2 ON c2.a = s.a", "L009"),
    ).toEqual([]);
    expect(
      hits("SELECT 1 FROM t AS x WHERE x.id IN (SELECT id FROM u JOIN v ON v.id = u.id)", "L009"),
    ).toEqual([]);
  });

  it("reports a select-list alias without AS at the alias", () => {
    expect(hits("SELECT a b, count(*) n, c AS d FROM t", "L009")).toEqual([
      "1:10 Column alias 'b' is missing the AS keyword",
      "1:22 Column alias 'n' is missing the AS keyword",
    ]);
  });

  it("does not mistake TOP, DISTINCT ON or a FROM inside EXTRACT for aliasing", () => {
    expect(hits("SELECT TOP 5 a FROM t", "L009")).toEqual([]);
    expect(hits("SELECT DISTINCT ON (a) a, b FROM t", "L009")).toEqual([]);
    expect(hits("SELECT EXTRACT(YEAR FROM d) AS y FROM t AS x", "L009")).toEqual([]);
  });
});

describe("L010 RedundantWhitespace", () => {
  it("reports each run of two or more spaces at its first space", () => {
    expect(hits("SELECT a,  b FROM   t", "L010")).toEqual([
      "1:10 Multiple consecutive spaces found",
      "1:18 Multiple consecutive spaces found",
    ]);
  });

  it("ignores indentation and spaces inside strings, quoted identifiers and comments", () => {
    expect(hits(`    SELECT 'a  b', "c  d" -- e  f\nFROM t /* g  h */`, "L010")).toEqual([]);
  });

  it("counts columns in code points", () => {
    expect(hits("SELECT '😀'  AS x", "L010")).toEqual(["1:11 Multiple consecutive spaces found"]);
  });
});

describe("L007 KeywordCase and KEY", () => {
  it("checks KEY after PRIMARY or FOREIGN but not a column named key", () => {
    expect(hits("CREATE TABLE t (key INT PRIMARY key)", "L007")).toEqual([
      "1:33 Keyword 'key' should be uppercase: 'KEY'",
    ]);
  });
});

describe("lintSql on arbitrary input", () => {
  it("returns sorted violations whose positions exist in the input", () => {
    const pieces = [
      "select",
      "SELECT",
      " ",
      "  ",
      "\t",
      "\n",
      "\r\n",
      ",",
      "a",
      "'x  y'",
      "-- c  d",
      "/*\n*/",
      "(",
      ")",
      "FROM",
      "t u",
      "😀",
      " AS ",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 50 }), (parts) => {
        const sql = parts.join("");
        const lines = sql.split(/\r\n|\r|\n/);
        const { violations } = lintSql(sql);
        for (let i = 1; i < violations.length; i++) {
          const a = violations[i - 1];
          const b = violations[i];
          if (a === undefined || b === undefined) continue;
          expect(
            a.line < b.line ||
              (a.line === b.line &&
                (a.column < b.column || (a.column === b.column && a.rule <= b.rule))),
          ).toBe(true);
        }
        for (const v of violations) {
          const line = lines[v.line - 1];
          expect(line, `${v.rule} at ${v.line}:${v.column}`).toBeDefined();
          expect(v.column).toBeGreaterThanOrEqual(1);
          expect(v.column).toBeLessThanOrEqual(Math.max(101, [...(line ?? "")].length + 1));
        }
      }),
      { numRuns: 300 },
    );
  });
});
