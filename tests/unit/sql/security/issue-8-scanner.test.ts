import { describe, expect, it } from "vitest";
import { scanSql } from "../../../../core/sql/security/index.js";
import { high } from "./high-findings.js";

describe("scanner regressions of issue 8", () => {
  it("does not read the items of an IN list before OR as a tautology (issue 8)", () => {
    expect(
      scanSql("SELECT * FROM tickets WHERE status IN ('a','b') OR priority > 3").findings,
    ).toEqual([]);
    expect(scanSql("SELECT * FROM t WHERE id IN (1) OR code IN (1, 2)").findings).toEqual([]);
    expect(high("SELECT * FROM t WHERE id = 1 OR (1=1)")).toContain("CRITICAL TAUTOLOGY");
    expect(high("SELECT * FROM t WHERE id = 1 OR NOT (1=2)")).toContain("CRITICAL TAUTOLOGY");
  });
});

describe("comment truncation (issue 8)", () => {
  it("reports a comment that cuts the query off right after a value as HIGH", () => {
    for (const sql of [
      "SELECT * FROM users WHERE username = 'admin'--",
      "SELECT * FROM users WHERE username = 'admin'#",
      "SELECT * FROM users WHERE username = 'admin' -- ",
      "SELECT * FROM users WHERE username = 'admin'-- -",
    ]) {
      expect(high(sql), sql).toContain("HIGH COMMENT_BYPASS");
    }
  });

  it("reports a comment that goes on with the condition it cut off as HIGH", () => {
    for (const sql of [
      "SELECT * FROM documents WHERE id = 5-- AND owner_id = 9",
      "SELECT * FROM orders WHERE id = 77 # AND user_id = 12",
      "SELECT * FROM users WHERE email = 'a@b.c'/* AND password = 'x' */",
      "DELETE FROM posts WHERE id = 9-- AND author_id = 2",
    ]) {
      expect(high(sql), sql).toContain("HIGH COMMENT_BYPASS");
    }
  });

  it("does not report balanced comments that are notes, nor commented-out lines", () => {
    for (const sql of [
      "SELECT a /* x */, b FROM t",
      "SELECT a, b FROM t /* report v2 */",
      "SELECT id FROM orders WHERE id = 5 /* looked up by id */",
      "SELECT * FROM orders WHERE id = 5 -- by id",
      "SELECT *\nFROM orders\nWHERE customer_id = 7\n-- AND status = 'open'\nORDER BY id",
      "SELECT id FROM t WHERE a = 1 /* AND b = 2 */ AND c = 3",
    ]) {
      expect(scanSql(sql).findings, sql).toEqual([]);
    }
  });
});

describe("weak attack families of issue 8", () => {
  it("reports boolean-blind probes of server identity and existence probes as HIGH", () => {
    for (const sql of [
      "SELECT * FROM items WHERE id = 1 AND current_user = 'postgres'",
      "SELECT * FROM items WHERE id = 1 AND @@version LIKE '8%'",
      "SELECT * FROM items WHERE id = 1 AND database() = 'shop'",
      "SELECT * FROM items WHERE id = 1 AND EXISTS(SELECT * FROM users WHERE username = 'admin' AND password LIKE 'a%')",
      "SELECT * FROM news WHERE id = 2 AND EXISTS(SELECT 1 FROM information_schema.tables WHERE table_name = 'users')",
    ]) {
      expect(high(sql), sql).toContain("HIGH BOOLEAN_BASED");
    }
  });

  it("leaves an application's own EXISTS and current_user comparisons alone", () => {
    for (const sql of [
      'SELECT "accounts".* FROM "accounts" WHERE "accounts"."id" = $1 AND EXISTS (SELECT 1 FROM "api_keys" WHERE "api_keys"."account_id" = "accounts"."id" AND "api_keys"."api_key_hash" = $2)',
      "SELECT * FROM documents WHERE owner = current_user AND status = 'draft'",
      "SELECT * FROM events WHERE created_by = CURRENT_USER OR visibility = 'public'",
      "SELECT c.relname FROM pg_class c WHERE c.relkind = 'r' AND EXISTS (SELECT 1 FROM pg_namespace n WHERE n.oid = c.relnamespace)",
    ]) {
      expect(high(sql), sql).toEqual([]);
    }
  });

  it("reports error-based extraction: fingerprints against numbers, XMLType over a subquery, Oracle packages", () => {
    for (const sql of [
      "SELECT * FROM items WHERE id = 1 AND @@version = 1",
      "SELECT * FROM items WHERE id = 1 AND 1 = db_name()",
      "SELECT * FROM items WHERE id = 1 AND 1=(SELECT UPPER(XMLType(CHR(60)||CHR(58)||(SELECT user FROM dual)||CHR(62))) FROM dual)",
      "SELECT * FROM items WHERE id = 1 AND 1=CTXSYS.DRITHSX.SN(1,(SELECT user FROM dual))",
    ]) {
      expect(high(sql), sql).toContain("HIGH ERROR_BASED");
    }
    expect(high("INSERT INTO docs (id, body) VALUES (1, XMLType('<a>1</a>'))")).toEqual([]);
  });

  it("reports heavy queries inside a condition as time-based, but not seeding with generate_series", () => {
    expect(
      high(
        "SELECT * FROM t WHERE id = 1 AND 1=(SELECT COUNT(*) FROM generate_series(1, 50000000))",
      ),
    ).toContain("HIGH TIME_BASED");
    expect(
      high(
        "SELECT * FROM t WHERE id = 1 AND (SELECT COUNT(*) FROM information_schema.columns A, information_schema.columns B, information_schema.columns C) > 0",
      ),
    ).not.toEqual([]);
    expect(
      high("INSERT INTO load_test SELECT g, md5(g::text) FROM generate_series(1, 20000000) g"),
    ).toEqual([]);
    expect(high("SELECT n FROM generate_series(1, 100) AS n WHERE n % 7 = 0")).toEqual([]);
  });

  it("reports a stacked SET GLOBAL and BULK INSERT from a network share as CRITICAL", () => {
    expect(high("SELECT * FROM t WHERE id = 1; SET GLOBAL general_log = 'ON'")).toContain(
      "CRITICAL STACKED_QUERY",
    );
    expect(high("SELECT * FROM users WHERE id = 1; SET @@GLOBAL.sql_mode = ''")).toContain(
      "CRITICAL STACKED_QUERY",
    );
    expect(high("BULK INSERT temp FROM '\\\\10.0.0.5\\share\\data.txt'")).toContain(
      "CRITICAL OUT_OF_BAND",
    );
    expect(
      high("SELECT * FROM t WHERE id = 1; BULK INSERT users FROM '//evil.example/s/x'"),
    ).toEqual(["CRITICAL OUT_OF_BAND", "CRITICAL STACKED_QUERY"]);
    expect(high("SET GLOBAL max_connections = 500")).toEqual([]);
    expect(high("BULK INSERT dbo.Sales FROM 'C:\\imports\\sales.csv' WITH (FIRSTROW = 2)")).toEqual(
      [],
    );
  });

  it("reads || followed by an always-true comparison as MySQL's OR, not concatenation", () => {
    expect(high("SELECT * FROM users WHERE id = 1 || 1=1")).toContain("CRITICAL TAUTOLOGY");
    expect(high("SELECT * FROM users WHERE name = '' || 'a'='a'")).toContain("CRITICAL TAUTOLOGY");
    expect(high("SELECT * FROM codes WHERE code = 'A' || '1'")).toEqual([]);
    expect(high("SELECT * FROM paths WHERE full_path = parent || '/' || name")).toEqual([]);
  });
});
