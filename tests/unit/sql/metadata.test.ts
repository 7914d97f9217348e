import { beforeAll, describe, expect, it } from "vitest";
import type { RoutingSqlParser } from "../../../adapters/sql/index.js";
import type { ParsedStatement } from "../../../core/ports/sql-parser.js";
import { extractMetadata, toMetadataResult } from "../../../core/sql/metadata.js";
import type { MetadataResult } from "../../../core/sql/results.js";
import { loadedParser } from "./loaded-parser.js";

let parser: RoutingSqlParser;
beforeAll(async () => {
  parser = await loadedParser();
});

function metadata(sql: string): MetadataResult {
  const outcome = extractMetadata(parser, sql);
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.result;
}

describe("extractMetadata", () => {
  it("lists tables, columns and functions in first-seen order", () => {
    expect(
      metadata(
        "SELECT u.name, COUNT(o.id) AS order_count, UPPER(u.email) FROM users u LEFT JOIN orders o ON u.id = o.user_id WHERE u.active = true GROUP BY u.name, u.email HAVING COUNT(o.id) > 5 ORDER BY order_count DESC",
      ),
    ).toEqual({
      tables: ["users", "orders"],
      columns: ["name", "id", "email", "id", "user_id", "active", "order_count"],
      functions: ["COUNT", "UPPER"],
    });
  });

  it("gives id twice for u.id and o.id, once for repeated u.id", () => {
    expect(
      metadata("SELECT u.id, o.id, u.id FROM users u JOIN orders o ON u.id = o.id").columns,
    ).toEqual(["id", "id"]);
  });

  it("does not list CTE names as tables", () => {
    expect(
      metadata(
        "WITH active_users AS (SELECT * FROM users WHERE active = true) SELECT * FROM active_users",
      ).tables,
    ).toEqual(["users"]);
  });

  it("keeps qualified names whole and removes quotes", () => {
    expect(metadata('SELECT * FROM db.schema.t JOIN "Public"."Tab" x ON true').tables).toEqual([
      "db.schema.t",
      "Public.Tab",
    ]);
  });

  it("never lists * as a column and answers empty arrays when there is nothing", () => {
    expect(metadata("SELECT * FROM t").columns).toEqual([]);
    expect(metadata("SELECT 1")).toEqual({ tables: [], columns: [], functions: [] });
  });

  it("merges statements: a name used again by a later statement is not repeated", () => {
    expect(metadata("SELECT id, NOW() FROM a; SELECT id, name, now() FROM b")).toEqual({
      tables: ["a", "b"],
      columns: ["id", "name"],
      functions: ["NOW", "now"],
    });
  });

  it("lists tables of set operations on every side", () => {
    expect(
      metadata(
        "SELECT id FROM users UNION SELECT id FROM employees EXCEPT SELECT id FROM archived_users",
      ).tables,
    ).toEqual(["users", "employees", "archived_users"]);
  });

  it("fails with parse failed for SQL no dialect accepts", () => {
    expect(extractMetadata(parser, "SELECT FROM")).toEqual({
      ok: false,
      error: "parse failed: line 1, column 12: unexpected end of input",
    });
  });
});

describe("toMetadataResult", () => {
  it("keeps the larger count of a column used by several statements", () => {
    const s = (columns: string[]): ParsedStatement => ({
      kind: "Select",
      tables: [],
      columns,
      functions: [],
    });
    expect(toMetadataResult([s(["id"]), s(["id", "id", "x"]), s(["x"])]).columns).toEqual([
      "id",
      "id",
      "x",
    ]);
  });
});
