import { describe, expect, it } from "vitest";
import { MetadataCollector } from "../../../../adapters/sql/metadata-collector.js";

describe("MetadataCollector", () => {
  it("orders names by source position, whatever order they were seen in", () => {
    const names = new MetadataCollector();
    names.table(["orders"], 40);
    names.table(["users"], 10);
    names.column("", "total", 30);
    names.column("u", "id", 7);
    names.func("COUNT", 20);
    names.func("upper", 5);
    expect(names.result()).toEqual({
      tables: ["users", "orders"],
      columns: ["id", "total"],
      functions: ["upper", "COUNT"],
    });
  });

  it("keeps one column per (qualifier, name) pair and one entry per table and function", () => {
    const names = new MetadataCollector();
    names.column("u", "id", 1);
    names.column("o", "id", 2);
    names.column("u", "id", 3);
    names.column("", "*", 4);
    names.table(["db", "t"], 5);
    names.table(["db", "t"], 6);
    names.func("f", 7);
    names.func("f", 8);
    expect(names.result()).toEqual({ tables: ["db.t"], columns: ["id", "id"], functions: ["f"] });
  });

  it("drops one-part table names that name a CTE, case-insensitively, but keeps qualified ones", () => {
    const names = new MetadataCollector();
    names.cte("recent");
    names.table(["Recent"], 1);
    names.table(["archive", "recent"], 2);
    names.table(["orders"], 3);
    expect(names.result().tables).toEqual(["archive.recent", "orders"]);
  });
});
