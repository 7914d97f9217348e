import type { Clock } from "../../core/ports/clock.js";

/**
 * The {@link Clock} of the running process: the operating system's wall-clock time.
 *
 * @example
 * const clock = new SystemClock();
 * clock.now().toISOString(); // "2026-11-21T10:00:00.000Z"
 */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}
