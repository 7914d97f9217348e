/**
 * The SQL injection scanner: detector families over the tokenizer's output.
 *
 * @example
 * import { scanSql } from "./security/index.js";
 * scanSql("SELECT * FROM users WHERE name = '' OR '1'='1' --'").has_critical; // true
 */
export { scanSql } from "./scan-sql.js";
export { SECURITY_DETECTORS } from "./security-detectors.js";
export { SECURITY_PATTERNS, makeFinding } from "./patterns.js";
export { createScanContext, spanText } from "./scan-context.js";
export type {
  ConditionalComment,
  ScanContext,
  SplitKeyword,
  StatementRange,
} from "./scan-context.js";
export type { Detector } from "./detector.js";
