/**
 * Where the core reads the time. The core never calls `Date.now()`; it asks a Clock, so tests can
 * use a `ManualClock` and move time by hand.
 *
 * @example
 * const clock: Clock = { now: () => new Date() };
 */
export interface Clock {
  /** The current instant. */
  now(): Date;
}
