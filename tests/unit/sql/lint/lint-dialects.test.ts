import { describe, expect, it } from "vitest";
import { dialectTokens, lintSql, lintTokens } from "../../../../core/sql/lint/index.js";
import { tokenize } from "../../../../core/sql/tokenizer.js";

function rules(sql: string, dialect?: "mysql" | "sqlserver" | "postgresql"): string[] {
  return lintSql(sql, dialect === undefined ? {} : { dialect }).violations.map(
    (v) => `${v.rule}@${v.column}`,
  );
}

describe("dialect-aware linting (issue 13)", () => {
  it("reads the unit of an interval as a keyword, not as a column alias, in every dialect", () => {
    expect(rules("SELECT NOW() - INTERVAL 2 DAY FROM t")).toEqual([]);
    expect(rules("SELECT created + INTERVAL '1' DAY TO SECOND FROM t")).toEqual([]);
    expect(rules("SELECT d + INTERVAL n MONTH FROM t", "mysql")).toEqual([]);
    // A real alias after the interval is still seen.
    expect(rules("SELECT NOW() - INTERVAL 2 DAY due FROM t")).toEqual(["L009@31"]);
    // The same word elsewhere is a name.
    expect(rules("SELECT created day FROM t")).toEqual(["L009@16"]);
  });

  it("reads MySQL's word operators as keywords in MySQL only", () => {
    expect(rules("SELECT a DIV b FROM t", "mysql")).toEqual([]);
    expect(rules("SELECT a DIV b FROM t")).toEqual(["L009@14"]);
  });

  it("reads MySQL backslash escapes and double-quoted strings in MySQL", () => {
    // Standard reading: the string ends at \' and the rest is an unterminated string.
    expect(lintTokens("SELECT 'it\\'s' AS x FROM t").at(-1)?.unterminated).toBe(true);
    const mysql = lintTokens("SELECT 'it\\'s' AS x FROM t", "mysql");
    expect(mysql.find((t) => t.kind === "string")?.text).toBe("'it\\'s'");
    expect(rules("select 'it\\'s' AS x FROM t", "mysql")).toEqual(["L007@1"]);
    expect(lintTokens('SELECT "a"', "mysql").at(-1)?.kind).toBe("string");
    expect(lintTokens('SELECT "a"').at(-1)?.kind).toBe("quoted_identifier");
    expect(rules('SELECT "label" x FROM t', "mysql")).toEqual(["L009@16"]);
  });

  it("treats backticks and brackets as quoted names: keywords inside are not checked", () => {
    expect(rules("SELECT `select`, [from] FROM `order`")).toEqual([]);
    expect(rules("SELECT `a` `b` FROM t", "mysql")).toEqual(["L009@12"]);
  });

  // Heavy: long unclosed bracket runs. Took 0.2 s and 0.8 s in two runs of the unit project on 2
  // shared cores with two busy loops running.
  it("re-reads brackets with work proportional to the input, even when none closes", () => {
    const reads = (sql: string) => {
      let count = 0;
      const tokens = tokenize(sql).map(
        (t) =>
          new Proxy(t, {
            get(target, key, receiver) {
              count++;
              return Reflect.get(target, key, receiver) as unknown;
            },
          }),
      );
      dialectTokens(tokens, "generic");
      return count;
    };
    for (const unit of ["a [", "x [b c] ", "[ "]) {
      const small = reads(`SELECT ${unit.repeat(2000)}`);
      const large = reads(`SELECT ${unit.repeat(4000)}`);
      expect(large / small, unit).toBeLessThan(2.3);
    }
  }, 30_000);
});
