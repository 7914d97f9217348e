import { describe, expect, it } from "vitest";
import { lintSql } from "../../../../core/sql/lint/index.js";

/** Rule and line of each violation. */
function found(sql: string): string[] {
  return lintSql(sql).violations.map((v) => `${v.line} ${v.rule}`);
}

describe("noqa comments (issue 13)", () => {
  it("-- noqa silences every rule on its line and nothing on the next", () => {
    expect(found("select a  from t -- noqa\nselect b")).toEqual(["2 L007"]);
  });

  it("-- noqa: L007,L010 silences the listed rules only, by code or name in any case", () => {
    expect(found("select a  from t  /* x */ -- noqa: L007,L010")).toEqual([]);
    expect(found("select a  from t -- noqa: L007,L010  ")).toEqual(["1 L001"]);
    expect(found("select a  from t -- noqa:keywordcase, RedundantWhitespace")).toEqual([]);
    expect(found("select a  from t -- noqa: L010")).toEqual(["1 L007", "1 L007"]);
  });

  it("disable=… and enable=… silence a range of lines, by rule or all", () => {
    const sql = [
      "select a", // 1
      "-- noqa: disable=L007", // 2
      "select b  from t", // 3
      "-- noqa: enable=L007", // 4
      "select c", // 5
      "-- noqa: disable=all", // 6
      "select   d   ", // 7
      "-- noqa: enable=all", // 8
      "select e", // 9
    ].join("\n");
    expect(found(sql)).toEqual(["1 L007", "3 L010", "5 L007", "9 L007"]);
  });

  it("a range left open runs to the end, and enable=all closes every open range", () => {
    expect(found("-- noqa: disable=L007\nselect a\nselect  b")).toEqual(["3 L010"]);
    expect(found("-- noqa: disable=L007,L010\nselect  a\n-- noqa: enable=all\nselect  b")).toEqual([
      "4 L007",
      "4 L010",
    ]);
  });

  it("works in MySQL # comments and ignores rule names no rule has", () => {
    expect(found("select a # noqa")).toEqual([]);
    expect(found("select a -- noqa: L999")).toEqual(["1 L007"]);
  });

  it("is not read inside strings or block comments, or from other comment text", () => {
    expect(found("select '-- noqa'")).toEqual(["1 L007"]);
    expect(found("select a /* noqa */")).toEqual(["1 L007"]);
    expect(found("select a -- this is not noqa")).toEqual(["1 L007"]);
  });
});
