import type { FindingSeverity, SecurityFinding } from "../results.js";

/** Risk and suggestion texts per pattern (the reference's wording where it had one). */
const PATTERN_TEXTS: Readonly<Record<string, { risk: string; suggestion: string }>> = {
  TAUTOLOGY: {
    risk: "Authentication bypass via always-true condition",
    suggestion: "Use parameterized queries to prevent tautology injection",
  },
  UNION_INJECTION: {
    risk: "UNION-based SQL injection with injection fingerprint (system table or NULL padding)",
    suggestion: "Use parameterized queries and block system table access",
  },
  UNION_GENERIC: {
    risk: "Possible UNION-based data extraction; review for legitimacy",
    suggestion: "Verify UNION is intentional and all inputs are parameterized",
  },
  STACKED_QUERY: {
    risk: "Stacked query injection with destructive operations",
    suggestion: "Block semicolons in user input or use parameterized queries",
  },
  COMMENT_BYPASS: {
    risk: "SQL injection via comment-based bypass",
    suggestion: "Sanitize input to remove SQL comments",
  },
  TIME_BASED: {
    risk: "Time-based blind SQL injection",
    suggestion: "Review and sanitize SQL input",
  },
  OUT_OF_BAND: {
    risk: "Out-of-band data exfiltration or command execution",
    suggestion: "Review and sanitize SQL input",
  },
  DANGEROUS_FUNCTION: {
    risk: "Dynamic SQL execution vulnerability",
    suggestion: "Review and sanitize SQL input",
  },
  BOOLEAN_BASED: {
    risk: "Boolean-based blind SQL injection (data inferred one true/false answer at a time)",
    suggestion: "Use parameterized queries; never build conditions from user input",
  },
  OBFUSCATION: {
    risk: "Filter evasion: SQL hidden by inline comments, encodings or concatenation",
    suggestion: "Reject input with SQL comments or encoded text; use parameterized queries",
  },
  ERROR_BASED: {
    risk: "Error-based SQL injection (data leaked through database error messages)",
    suggestion: "Use parameterized queries and do not return database errors to clients",
  },
};

/**
 * Every pattern value the scanner can emit.
 *
 * @example
 * SECURITY_PATTERNS.includes("TAUTOLOGY"); // true
 */
export const SECURITY_PATTERNS: readonly string[] = Object.keys(PATTERN_TEXTS);

/**
 * A finding with the pattern's standard risk and suggestion.
 *
 * @example
 * makeFinding("TAUTOLOGY", "CRITICAL", "Always-true condition detected (tautology): 1=1");
 */
export function makeFinding(
  pattern: string,
  severity: FindingSeverity,
  description: string,
): SecurityFinding {
  const texts = PATTERN_TEXTS[pattern];
  if (texts === undefined) throw new Error(`unknown security pattern ${pattern}`);
  return { severity, pattern, description, risk: texts.risk, suggestion: texts.suggestion };
}
