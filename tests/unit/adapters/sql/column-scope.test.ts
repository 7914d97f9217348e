import { describe, expect, it } from "vitest";
import { ColumnScope } from "../../../../adapters/sql/column-scope.js";

describe("ColumnScope (issue 8: columns per table)", () => {
  it("resolves aliases, table names and the only table of a block", () => {
    const scope = new ColumnScope();
    scope.addTable(["public", "Users"], "u");
    expect(scope.tableOf("U")).toBe("public.users");
    expect(scope.tableOf("")).toBe("public.users");
    expect(scope.target()).toBe("public.users");
  });

  it("leaves an unqualified column of a block with several tables unresolved", () => {
    const scope = new ColumnScope();
    scope.addTable(["users"]);
    scope.addDerived("s");
    expect(scope.tableOf("")).toBe("");
    expect(scope.tableOf("users")).toBe("users");
    expect(scope.tableOf("s")).toBe("(s");
  });

  it("looks qualifiers up outwards and keeps unknown ones as written, lower-cased", () => {
    const outer = new ColumnScope();
    outer.addTable(["orders"], "o");
    const inner = new ColumnScope(outer);
    inner.addTable(["items"]);
    expect(inner.tableOf("o")).toBe("orders");
    expect(inner.tableOf("")).toBe("items");
    expect(inner.tableOf("X")).toBe("x");
    expect(new ColumnScope(outer).tableOf("")).toBe("orders");
  });
});
