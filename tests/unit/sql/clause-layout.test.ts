import { describe, expect, it } from "vitest";
import { compactClauses } from "../../../core/sql/clause-layout.js";
import { tokenize } from "../../../core/sql/tokenizer.js";

describe("compactClauses", () => {
  it("puts a one-level clause body on the clause's line", () => {
    expect(compactClauses("SELECT\n  id,\n  name\nFROM\n  users\nGROUP BY\n  id", 2)).toBe(
      "SELECT id, name\nFROM users\nGROUP BY id",
    );
  });

  it("leaves a body with a nested block expanded and compacts the nested clauses", () => {
    const laidOut = "where\n  b in (\n    select\n      c\n    from\n      d\n  )";
    expect(compactClauses(laidOut, 2)).toBe("where\n  b in (\n    select c\n    from d\n  )");
  });

  it("never joins lines holding comments or parts of a multi-line string", () => {
    expect(compactClauses("select\n  a -- note\nfrom\n  t", 2)).toBe("select\n  a -- note\nfrom t");
    expect(compactClauses("select\n  'multi\n  line'\nfrom\n  t", 2)).toBe(
      "select\n  'multi\n  line'\nfrom t",
    );
  });

  it("joins each statement onto one line when indent_size is 0", () => {
    expect(compactClauses("SELECT\na\nFROM\nt;\n\nSELECT\n1", 0)).toBe(
      "SELECT a FROM t;\n\nSELECT 1",
    );
  });

  it("keeps a statement with a comment as it is when indent_size is 0", () => {
    expect(compactClauses("SELECT\na -- c\nFROM\nt", 0)).toBe("SELECT\na -- c\nFROM\nt");
  });

  it("uses the tokens it is given for the text instead of tokenising it again", () => {
    const text = "select\n  a -- note\nfrom\n  t";
    expect(compactClauses(text, 2, tokenize(text))).toBe("select\n  a -- note\nfrom t");
    // The tokens decide which lines are safe to join: without the comment token, they are.
    expect(compactClauses(text, 2, tokenize("select\n  a\nfrom\n  t"))).toBe(
      "select a -- note\nfrom t",
    );
  });
});
