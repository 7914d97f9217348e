import type { SecurityFinding } from "../results.js";
import type { ScanContext } from "./scan-context.js";

/**
 * One family of injection detectors over the shared {@link ScanContext}. Detectors emit findings
 * in source order; the scanner runs them in registry order, so the output order is deterministic.
 *
 * @example
 * const detector: Detector = {
 *   family: "time-based",
 *   patterns: ["TIME_BASED"],
 *   detect(ctx, emit) { … },
 * };
 */
export interface Detector {
  /** Kebab-case family name (the file name under `detectors/`). */
  readonly family: string;
  /** The pattern values this detector can emit. */
  readonly patterns: readonly string[];
  detect(context: ScanContext, emit: (finding: SecurityFinding) => void): void;
}
