/**
 * The constant condition terms the tautology and boolean-based detectors share, as data. Their
 * own file so that the scan context (which memoises them) and `condition-terms.ts` (which finds
 * them and reads the context) do not import each other.
 */

/** What a constant condition evaluates to, when that can be decided without a database. */
export type TermValue = "true" | "false" | "unknown";

/** A condition term built only from constants (or comparing a name with itself). */
export interface ConstantTerm {
  /** Half-open range of indices into `ctx.sig`. */
  readonly from: number;
  readonly to: number;
  /** Upper-case text of the token before the term (skipping opening parentheses), e.g. `OR`. */
  readonly before: string;
  /** Upper-case text of the token after the term (skipping closing parentheses), or "" at the end. */
  readonly after: string;
  /** The clause that holds the term: WHERE, HAVING, ON or WHEN. */
  readonly clause: string;
  /** True when some enclosing clause (at any depth) is a WHERE, HAVING or ON. */
  readonly nestedInCondition: boolean;
  readonly value: TermValue;
}
