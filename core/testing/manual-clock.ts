import type { Clock } from "../ports/clock.js";

/**
 * A Clock that moves only when told to: for tests of expiry, recency and timestamps.
 *
 * @example
 * const clock = new ManualClock("2026-11-21T10:00:00.000Z");
 * clock.advance(60 * 60 * 1000); // one hour later
 * clock.now().toISOString(); // "2026-11-21T11:00:00.000Z"
 */
export class ManualClock implements Clock {
  #ms: number;

  constructor(start: Date | string | number = "2026-01-01T00:00:00.000Z") {
    this.#ms = toMs(start);
  }

  now(): Date {
    return new Date(this.#ms);
  }

  /** Jumps to an instant (backwards too). */
  set(instant: Date | string | number): void {
    this.#ms = toMs(instant);
  }

  /** Moves forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.#ms += ms;
  }
}

function toMs(instant: Date | string | number): number {
  const ms =
    instant instanceof Date
      ? instant.getTime()
      : typeof instant === "string"
        ? Date.parse(instant)
        : instant;
  if (!Number.isFinite(ms)) throw new Error(`ManualClock: not an instant: ${String(instant)}`);
  return ms;
}
