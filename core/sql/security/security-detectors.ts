import type { Detector } from "./detector.js";
import { booleanBasedDetector } from "./detectors/boolean-based.js";
import { commentBypassDetector } from "./detectors/comment-bypass.js";
import { dangerousFunctionDetector } from "./detectors/dangerous-function.js";
import { errorBasedDetector } from "./detectors/error-based.js";
import { obfuscationDetector } from "./detectors/obfuscation.js";
import { outOfBandDetector } from "./detectors/out-of-band.js";
import { stackedQueryDetector } from "./detectors/stacked-query.js";
import { tautologyDetector } from "./detectors/tautology.js";
import { timeBasedDetector } from "./detectors/time-based.js";
import { unionDetector } from "./detectors/union.js";

/**
 * The detector registry, in output order (the reference scanner's order for its families, then
 * the families it lacked).
 *
 * @example
 * SECURITY_DETECTORS.map((d) => d.family); // ["comment-bypass", "tautology", …]
 */
export const SECURITY_DETECTORS: readonly Detector[] = [
  commentBypassDetector,
  tautologyDetector,
  timeBasedDetector,
  outOfBandDetector,
  dangerousFunctionDetector,
  unionDetector,
  stackedQueryDetector,
  booleanBasedDetector,
  obfuscationDetector,
  errorBasedDetector,
];
