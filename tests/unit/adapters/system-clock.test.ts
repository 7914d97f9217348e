import { describe, expect, it } from "vitest";
import { SystemClock } from "../../../adapters/system/system-clock.js";

describe("SystemClock", () => {
  it("reports the current wall-clock time as a fresh Date", () => {
    const clock = new SystemClock();
    const before = Date.now();
    const now = clock.now();
    const after = Date.now();
    expect(now).toBeInstanceOf(Date);
    expect(now.getTime()).toBeGreaterThanOrEqual(before);
    expect(now.getTime()).toBeLessThanOrEqual(after);
    expect(clock.now()).not.toBe(now);
  });
});
