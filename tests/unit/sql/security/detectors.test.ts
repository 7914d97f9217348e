import { describe, expect, it } from "vitest";
import type { SecurityScanResult } from "../../../../core/sql/results.js";
import {
  SECURITY_DETECTORS,
  SECURITY_PATTERNS,
  scanSql,
} from "../../../../core/sql/security/index.js";

function patterns(result: SecurityScanResult, minimum: "HIGH" | "ANY" = "ANY"): string[] {
  return result.findings
    .filter((f) => minimum === "ANY" || f.severity === "HIGH" || f.severity === "CRITICAL")
    .map((f) => `${f.severity} ${f.pattern}`);
}

function scan(sql: string, minimum: "HIGH" | "ANY" = "ANY"): string[] {
  return patterns(scanSql(sql), minimum);
}

describe("scanSql results", () => {
  it("reports a clean result with empty findings and zero counts", () => {
    expect(scanSql("SELECT id FROM users WHERE id = 42")).toEqual({
      is_clean: true,
      has_critical: false,
      has_high: false,
      total_count: 0,
      critical_count: 0,
      high_count: 0,
      medium_count: 0,
      low_count: 0,
      findings: [],
    });
  });

  it("keeps the counts consistent with the findings", () => {
    const r = scanSql(
      "SELECT * FROM users WHERE id = 1 OR 1=1 UNION SELECT password FROM admins; DROP TABLE users;--",
    );
    expect(r.total_count).toBe(r.findings.length);
    expect(r.critical_count + r.high_count + r.medium_count + r.low_count).toBe(r.total_count);
    expect(r.critical_count).toBe(r.findings.filter((f) => f.severity === "CRITICAL").length);
    expect(r.has_high).toBe(r.critical_count + r.high_count > 0);
  });

  it("only emits documented pattern values, each declared by its detector", () => {
    const declared = new Set(SECURITY_DETECTORS.flatMap((d) => d.patterns));
    expect([...declared].sort()).toEqual([...SECURITY_PATTERNS].sort());
  });

  it("gives every finding its pattern's risk and suggestion", () => {
    const [finding] = scanSql("SELECT * FROM users WHERE id = 1 OR 1=1").findings;
    expect(finding).toEqual({
      severity: "CRITICAL",
      pattern: "TAUTOLOGY",
      description: "Always-true condition detected (tautology): 1=1",
      risk: "Authentication bypass via always-true condition",
      suggestion: "Use parameterized queries to prevent tautology injection",
    });
  });
});

describe("tautology detector", () => {
  it("reports constant conditions joined with OR as CRITICAL", () => {
    for (const sql of [
      "SELECT * FROM u WHERE name = '' OR '1'='1'",
      "SELECT * FROM u WHERE id = 1 OR 2 > 1",
      "SELECT * FROM u WHERE id = 1 OR TRUE",
      "SELECT * FROM u WHERE id = 1 OR NOT 1 = 2",
      "SELECT * FROM u WHERE id = 1 OR ('a' = 'a')",
      "SELECT * FROM u WHERE id = 1 OR name = name",
    ]) {
      expect(scan(sql), sql).toContain("CRITICAL TAUTOLOGY");
    }
  });

  it("treats the query-builder idiom WHERE 1=1 AND … as MEDIUM and WHERE 1=0 as clean", () => {
    expect(scan("SELECT * FROM t WHERE 1=1 AND a = ?")).toEqual(["MEDIUM TAUTOLOGY"]);
    expect(scan("SELECT * FROM t WHERE 1=0")).toEqual([]);
  });

  it("does not read SET x = x or x = x + 1 as a comparison", () => {
    expect(scan("UPDATE t SET n = n WHERE id = 1")).toEqual([]);
    expect(scan("UPDATE t SET n = n + 1 WHERE id = 1")).toEqual([]);
  });

  it("ignores tautologies inside strings and comments", () => {
    expect(scan("SELECT 'x OR 1=1' FROM t /* OR 1=1 */ WHERE id = 2")).toEqual([]);
  });
});

describe("union detector", () => {
  it("reports system catalogs, NULL padding and fingerprints as CRITICAL UNION_INJECTION", () => {
    for (const sql of [
      "SELECT a FROM t WHERE id = 1 UNION SELECT table_name FROM information_schema.tables",
      "SELECT a, b FROM t WHERE id = 1 UNION SELECT NULL, NULL",
      "SELECT a FROM t WHERE id = 1 UNION SELECT @@version",
      "SELECT a, b, c FROM t WHERE id = 1 UNION ALL SELECT 1, 2, 3",
    ]) {
      expect(scan(sql), sql).toContain("CRITICAL UNION_INJECTION");
    }
  });

  it("reports credentials and shape mismatches as HIGH UNION_GENERIC", () => {
    expect(scan("SELECT id FROM users UNION SELECT password FROM admins")).toEqual([
      "HIGH UNION_GENERIC",
    ]);
    expect(scan("SELECT * FROM products WHERE id = 1 UNION SELECT a, b FROM t")).toEqual([
      "HIGH UNION_GENERIC",
    ]);
  });

  it("does not report a union of same-shaped selects or a UNION inside a string", () => {
    expect(scan("SELECT a, b FROM t1 UNION ALL SELECT a, b FROM t2")).toEqual([]);
    expect(
      scan(
        "SELECT x FROM i WHERE c = 'u' UNION SELECT y FROM information_schema.tables WHERE 1 = 0 AND FALSE",
        "HIGH",
      ),
    ).not.toContain("HIGH UNION_GENERIC");
    expect(scan("SELECT $q$UNION SELECT NULL, NULL$q$ FROM t")).toEqual([]);
  });

  it("does not report catalogs on both sides of an introspection union", () => {
    const sql =
      "SELECT table_name FROM information_schema.tables UNION SELECT table_name FROM information_schema.views";
    expect(scan(sql)).toEqual([]);
  });
});

describe("stacked query detector", () => {
  it("reports a data-changing statement stacked after a query", () => {
    expect(
      scanSql("SELECT * FROM t WHERE id = 1; DELETE FROM admins").findings.map(
        (f) => f.description,
      ),
    ).toContain("Pattern detected: ; DELETE");
  });

  it("reports any stacked statement when the input shows truncation", () => {
    expect(scan("UPDATE t SET a = ''; DROP TABLE t; --' WHERE id = 1", "HIGH")).toContain(
      "CRITICAL STACKED_QUERY",
    );
  });

  it("does not report migrations, transactions or pg_dump preambles", () => {
    expect(
      scan("CREATE TABLE a (id INT);\nINSERT INTO a VALUES (1);\nALTER TABLE a ADD b INT;"),
    ).toEqual([]);
    expect(
      scan(
        "BEGIN; UPDATE a SET x = x - 1 WHERE id = 1; UPDATE a SET x = x + 1 WHERE id = 2; COMMIT;",
      ),
    ).toEqual([]);
    expect(
      scan("SELECT pg_catalog.set_config('search_path', '', false);\nCREATE TABLE t (id int);"),
    ).toEqual([]);
  });

  it("does not split on semicolons inside strings", () => {
    expect(scan("SELECT * FROM users WHERE name LIKE '%; DROP TABLE users%'")).toEqual([]);
  });
});

describe("comment bypass detector", () => {
  it("reports a comment that starts with the orphaned quote as HIGH", () => {
    expect(scan("SELECT * FROM u WHERE name = 'admin'--' AND pw = 'x'")).toEqual([
      "HIGH COMMENT_BYPASS",
    ]);
    expect(scan("SELECT * FROM u WHERE name = 'admin'#' AND pw = 'x'")).toEqual([
      "HIGH COMMENT_BYPASS",
    ]);
  });

  it("reports an unclosed block comment as HIGH and an empty trailing comment as MEDIUM", () => {
    expect(scan("SELECT * FROM u WHERE name = 'admin'/*")).toEqual(["HIGH COMMENT_BYPASS"]);
    expect(scan("SELECT * FROM u WHERE active --")).toEqual(["MEDIUM COMMENT_BYPASS"]);
    // Right after a value it cuts the query off: HIGH as well (issue 8).
    expect(scan("SELECT * FROM u WHERE id = 1 --")).toEqual([
      "MEDIUM COMMENT_BYPASS",
      "HIGH COMMENT_BYPASS",
    ]);
  });

  it("accepts ordinary comments", () => {
    expect(scan("-- report\nSELECT id, /* pk */ name FROM u WHERE id = 1 -- by id\n")).toEqual([]);
  });
});

describe("time, out-of-band, dangerous-function and error-based detectors", () => {
  it("reports delays as HIGH TIME_BASED", () => {
    for (const sql of [
      "SELECT SLEEP(5)",
      "SELECT pg_sleep(1)",
      "WAITFOR DELAY '0:0:5'",
      "BEGIN DBMS_LOCK.SLEEP(5); END;",
    ]) {
      expect(scan(sql), sql).toContain("HIGH TIME_BASED");
    }
  });

  it("reports command execution and file access as CRITICAL OUT_OF_BAND", () => {
    for (const sql of [
      "EXEC xp_cmdshell 'dir'",
      "SELECT LOAD_FILE('/etc/passwd')",
      "SELECT 1 INTO OUTFILE '/tmp/x'",
    ]) {
      expect(scan(sql), sql).toContain("CRITICAL OUT_OF_BAND");
    }
  });

  it("reports dynamic SQL as MEDIUM DANGEROUS_FUNCTION", () => {
    expect(scan("EXECUTE IMMEDIATE 'SELECT 1'")).toEqual(["MEDIUM DANGEROUS_FUNCTION"]);
    expect(scan("EXEC sp_executesql @sql")).toEqual(["MEDIUM DANGEROUS_FUNCTION"]);
  });

  it("reports error-based extraction as HIGH ERROR_BASED", () => {
    expect(
      scan("SELECT * FROM t WHERE id = 1 AND UPDATEXML(1, CONCAT(0x7e, user()), 1)", "HIGH"),
    ).toContain("HIGH ERROR_BASED");
  });

  it("ignores function names inside strings and comments", () => {
    expect(scan("SELECT 'SLEEP(5) xp_cmdshell LOAD_FILE(x)' -- pg_sleep(1)")).toEqual([]);
  });
});

describe("boolean-based detector", () => {
  it("reports constant probes after AND and character probes over hidden data", () => {
    expect(scan("SELECT * FROM t WHERE id = 1 AND 1=2")).toEqual(["HIGH BOOLEAN_BASED"]);
    expect(
      scan(
        "SELECT * FROM t WHERE id = 1 AND ASCII(SUBSTRING((SELECT pw FROM u LIMIT 1), 1, 1)) > 64",
      ),
    ).toContain("HIGH BOOLEAN_BASED");
  });

  it("accepts BETWEEN bounds and correlated subqueries", () => {
    expect(scan("SELECT * FROM t WHERE a BETWEEN 1 AND 5 AND b = 2")).toEqual([]);
    expect(scan("SELECT * FROM o WHERE (SELECT COUNT(*) FROM i WHERE i.o = o.id) > 3")).toEqual([]);
  });
});

describe("obfuscation detector", () => {
  it("reports keywords split by inline comments and still sees the attack behind them", () => {
    const found = scan("SELECT a FROM t WHERE id = 1 UN/**/ION SEL/**/ECT NULL, NULL");
    expect(found).toContain("HIGH OBFUSCATION");
    expect(found).toContain("CRITICAL UNION_INJECTION");
  });

  it("reads MySQL conditional comments as code", () => {
    expect(scan("SELECT a FROM t WHERE id = 1 /*!50000UNION*/ SELECT NULL, NULL")).toContain(
      "CRITICAL UNION_INJECTION",
    );
  });

  it("reports hex and CHAR() text and concatenation that builds keywords", () => {
    expect(scan("SELECT * FROM u WHERE name = 0x61646d696e")).toEqual(["HIGH OBFUSCATION"]);
    expect(scan("SELECT * FROM u WHERE name = CHAR(97, 100, 109)")).toEqual(["HIGH OBFUSCATION"]);
    expect(scan("EXEC('SEL' + 'ECT 1')")).toContain("HIGH OBFUSCATION");
  });

  it("accepts CHAR(13) + CHAR(10), binary hex and ordinary concatenation", () => {
    expect(
      scan("SELECT a + CHAR(13) + CHAR(10) + b, 0xDEADBEEF, first || ' ' || last FROM t"),
    ).toEqual([]);
  });
});

describe("regressions found by probing after the blind batch", () => {
  it("does not read an aggregate over rows as a constant condition", () => {
    expect(scan("SELECT d, COUNT(*) FROM e GROUP BY d HAVING COUNT(*) > 1")).toEqual([]);
  });

  it("does not read prose built by CONCAT as a keyword", () => {
    expect(scan("SELECT * FROM products WHERE name = CONCAT('Up', 'date')")).toEqual([]);
  });

  it("does not read a comment quoting a word as a cut-off query", () => {
    expect(scan("SELECT a, -- 'legacy' column\n  b FROM t")).toEqual([]);
  });
});

describe("error-based conversions", () => {
  it("reports only conversions to numbers, whose errors echo the text", () => {
    expect(scan("SELECT CAST(current_user AS TEXT)")).toEqual([]);
    expect(scan("SELECT * FROM t WHERE id = 1 AND CAST(current_user AS INT) = 1")).toEqual([
      "HIGH ERROR_BASED",
    ]);
  });
});

describe("MySQL's backslash-escape reading", () => {
  it("finds an attack that only exists when \\' escapes a quote", () => {
    expect(
      scan("SELECT * FROM users WHERE name = '\\' AND pass = ' OR 1=1 -- '", "HIGH"),
    ).toContain("CRITICAL TAUTOLOGY");
  });

  it("does not flag an escaped quote inside an ordinary string", () => {
    expect(scan("INSERT INTO q (body) VALUES ('It\\'s a \\\\ backslash; OR 1=1 is text')")).toEqual(
      [],
    );
  });
});
