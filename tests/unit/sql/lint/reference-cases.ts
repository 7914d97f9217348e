import { readFileSync } from "node:fs";
import { expect } from "vitest";

/**
 * One call of the Go original (GoSQLX gosqlx-mcp v1.10.0) with its verified answer, copied from
 * the shared reference cases file (lint_sql and security_scan cases only, with their index there).
 */
export interface ReferenceCase {
  readonly index: number;
  readonly tool: "lint_sql" | "security_scan";
  readonly args: { readonly sql: string };
  readonly expect: Record<string, unknown>;
  readonly note?: string;
}

/** The reference cases of one tool. */
export function loadReferenceCases(tool: ReferenceCase["tool"]): ReferenceCase[] {
  const url = new URL("../../../fixtures/security/gosqlx-v1.10.0-cases.json", import.meta.url);
  const all = JSON.parse(readFileSync(url, "utf8")) as ReferenceCase[];
  return all.filter((c) => c.tool === tool);
}

/** Deep partial match as the cases file defines it (objects: listed keys; arrays: same length). */
export function partialMatch(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((e, i) => partialMatch(actual[i], e))
    );
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object") return false;
    const record = actual as Record<string, unknown>;
    return Object.entries(expected).every(([k, v]) => partialMatch(record[k], v));
  }
  return actual === expected;
}

type Row = Record<string, unknown>;

/**
 * Asserts the expectation keys of a case that apply to lint and scan results. `ignore` names keys
 * that a decision overrides (the caller documents why).
 */
export function expectReferenceCase(
  result: Row,
  expectation: Record<string, unknown>,
  ignore: readonly string[] = [],
): void {
  for (const [key, value] of Object.entries(expectation)) {
    if (ignore.includes(key)) continue;
    switch (key) {
      case "result_subset":
        expect(partialMatch(result, value), `result_subset ${JSON.stringify(value)}`).toBe(true);
        break;
      case "violations_by_rule": {
        const violations = result["violations"] as Row[];
        for (const [rule, count] of Object.entries(value as Record<string, number>)) {
          expect(violations.filter((v) => v["rule"] === rule).length, `${rule} count`).toBe(count);
        }
        break;
      }
      case "violations_contain":
      case "findings_contain": {
        const rows = result[key === "violations_contain" ? "violations" : "findings"] as Row[];
        for (const want of value as Row[]) {
          expect(
            rows.some((r) => partialMatch(r, want)),
            `${key} ${JSON.stringify(want)}`,
          ).toBe(true);
        }
        break;
      }
      case "findings_absent": {
        const rows = result["findings"] as Row[];
        for (const unwanted of value as Row[]) {
          expect(
            rows.some((r) => partialMatch(r, unwanted)),
            `absent ${JSON.stringify(unwanted)}`,
          ).toBe(false);
        }
        break;
      }
      case "findings_first":
        expect(
          partialMatch((result["findings"] as Row[])[0], value),
          `first ${JSON.stringify(value)}`,
        ).toBe(true);
        break;
      case "min":
        for (const [field, n] of Object.entries(value as Record<string, number>)) {
          expect(result[field] as number).toBeGreaterThanOrEqual(n);
        }
        break;
      default:
        throw new Error(`unsupported expectation key ${key}`);
    }
  }
}
