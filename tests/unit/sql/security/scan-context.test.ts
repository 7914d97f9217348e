import { describe, expect, it } from "vitest";
import { createScanContext, spanText } from "../../../../core/sql/security/index.js";

describe("createScanContext", () => {
  it("keeps only significant tokens", () => {
    const ctx = createScanContext("SELECT a -- note\n/* c */ FROM t");
    expect(ctx.sig.map((t) => t.text)).toEqual(["SELECT", "a", "FROM", "t"]);
  });

  it("reads the body of a MySQL conditional comment as code, with offsets into the input", () => {
    const sql = "SELECT 1 /*!50000UNION*/ SELECT 2";
    const ctx = createScanContext(sql);
    expect(ctx.sig.map((t) => t.upper)).toEqual(["SELECT", "1", "UNION", "SELECT", "2"]);
    const union = ctx.sig[2];
    expect(union === undefined ? "" : sql.slice(union.start, union.end)).toBe("UNION");
    expect(ctx.conditionalComments).toHaveLength(1);
  });

  it("joins keywords split by inline comments and records where they were", () => {
    const ctx = createScanContext("SELECT 1 UN/**/ION SEL/*x*/E/**/CT 2");
    expect(ctx.sig.map((t) => t.upper)).toEqual(["SELECT", "1", "UNION", "SELECT", "2"]);
    expect(ctx.splitKeywords.map((s) => s.source)).toEqual(["UN/**/ION", "SEL/*x*/E/**/CT"]);
  });

  it("does not join words that spell nothing", () => {
    const ctx = createScanContext("SELECT a/**/b FROM t");
    expect(ctx.sig.map((t) => t.text)).toEqual(["SELECT", "a", "b", "FROM", "t"]);
    expect(ctx.splitKeywords).toEqual([]);
  });

  it("splits statements on top-level semicolons only, skipping empty ones", () => {
    const ctx = createScanContext("SELECT ';'; ;BEGIN x; y; END;; SELECT (a;b)");
    expect(ctx.statements.map((s) => spanText(ctx.sig, s.from, s.to))).toEqual([
      "SELECT ';'",
      "BEGIN x",
      "y",
      "END",
      "SELECT (a;b)",
    ]);
  });

  it("records the parenthesis depth before each token", () => {
    const ctx = createScanContext("a (b (c) d) e");
    expect([...ctx.depth]).toEqual([0, 0, 1, 1, 2, 2, 1, 1, 0]);
  });
});

describe("spanText", () => {
  it("joins tokens with one space where the source had a gap", () => {
    const ctx = createScanContext("x  =\n'a'||b");
    expect(spanText(ctx.sig, 0, ctx.sig.length)).toBe("x = 'a'||b");
  });
});
