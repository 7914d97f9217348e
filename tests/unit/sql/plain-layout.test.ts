import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { plainLayout } from "../../../core/sql/plain-layout.js";
import { tokenize } from "../../../core/sql/tokenizer.js";

const soup = fc
  .array(
    fc.constantFrom(
      "select",
      "FROM",
      "t",
      "(",
      ")",
      ",",
      "'a  b'",
      "-- c\n",
      "/* x  y */",
      ";",
      "=",
      "true",
      "\n",
      "  ",
      "\t",
    ),
    { maxLength: 20 },
  )
  .map((parts) => parts.join(""));

function code(sql: string): string[] {
  return tokenize(sql)
    .filter((t) => t.kind !== "whitespace" && t.kind !== "newline")
    .map((t) => t.upper);
}

describe("plainLayout", () => {
  it("collapses whitespace, keeps line comments' line ends and starts statements on new lines", () => {
    expect(plainLayout(tokenize("select  a ,b -- note\n from t;select 1"), false)).toBe(
      "select a ,b -- note\nfrom t;\nselect 1",
    );
  });

  it("upper-cases keywords but not boolean literals when asked", () => {
    expect(plainLayout(tokenize("select true from t"), true)).toBe("SELECT true FROM t");
  });

  it("keeps every token and lays out its own output to itself", () => {
    fc.assert(
      fc.property(soup, fc.boolean(), (sql, upper) => {
        const once = plainLayout(tokenize(sql), upper);
        expect(code(once)).toEqual(code(sql));
        expect(plainLayout(tokenize(once), upper)).toBe(once);
      }),
    );
  });
});
