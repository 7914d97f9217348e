import type { SecurityFinding, SecurityScanResult } from "../results.js";
import type { Token } from "../token.js";
import { tokenize } from "../tokenizer.js";
import type { Detector } from "./detector.js";
import { createScanContext } from "./scan-context.js";
import { SECURITY_DETECTORS } from "./security-detectors.js";

const BACKSLASH_QUOTE = /\\['"]/;

/**
 * Scans `sql` for injection patterns: tokenises once, runs every detector over the shared context
 * and counts the findings by severity. Findings come in detector order, then source order, with
 * exact duplicates (same pattern, severity and description) removed; when the text holds `\'`,
 * MySQL's backslash-escape reading is scanned as well and its extra findings follow. Never throws.
 *
 * @example
 * const result = scanSql("SELECT * FROM users WHERE id = 1 OR 1=1");
 * result.has_critical; // true
 * result.findings[0]?.pattern; // "TAUTOLOGY"
 */
export function scanSql(
  sql: string,
  detectors: readonly Detector[] = SECURITY_DETECTORS,
  tokens: readonly Token[] = tokenize(sql),
): SecurityScanResult {
  const findings: SecurityFinding[] = [];
  const seen = new Set<string>();
  const emit = (finding: SecurityFinding): void => {
    const key = `${finding.pattern}\u0000${finding.severity}\u0000${finding.description}`;
    if (seen.has(key)) return;
    seen.add(key);
    findings.push(finding);
  };
  const context = createScanContext(sql, tokens);
  for (const detector of detectors) detector.detect(context, emit);
  // MySQL reads `\'` inside a string as an escaped quote, so `'\' AND b = ' OR 1=1 -- '` is code
  // there; when the text has one, scan MySQL's reading too and add what only it shows.
  if (BACKSLASH_QUOTE.test(sql)) {
    const mysql = createScanContext(sql, tokenize(sql, { backslashEscapes: true }));
    for (const detector of detectors) detector.detect(mysql, emit);
  }
  let critical = 0;
  let high = 0;
  let medium = 0;
  let low = 0;
  for (const f of findings) {
    if (f.severity === "CRITICAL") critical++;
    else if (f.severity === "HIGH") high++;
    else if (f.severity === "MEDIUM") medium++;
    else low++;
  }
  return {
    is_clean: findings.length === 0,
    has_critical: critical > 0,
    has_high: critical + high > 0,
    total_count: findings.length,
    critical_count: critical,
    high_count: high,
    medium_count: medium,
    low_count: low,
    findings,
  };
}
