import { describe, expect, it } from "vitest";
import { expiryOf } from "../../../../../shells/memsvc/cli/client/key-commands.js";

const NOW = Date.parse("2026-11-28T09:00:00.000Z");

describe("memsvc keys create --expires", () => {
  it("reads durations from now, days as midnight UTC, and instants as given", () => {
    expect(expiryOf("30d", NOW)).toBe("2026-12-28T09:00:00.000Z");
    expect(expiryOf("12h", NOW)).toBe("2026-11-28T21:00:00.000Z");
    expect(expiryOf("90m", NOW)).toBe("2026-11-28T10:30:00.000Z");
    expect(expiryOf("2027-01-01", NOW)).toBe("2027-01-01T00:00:00.000Z");
    expect(expiryOf("2027-01-01T08:00:00+02:00", NOW)).toBe("2027-01-01T08:00:00+02:00");
  });

  it("refuses anything else with a message listing what it takes", () => {
    for (const when of ["soon", "30", "1y", "2027-13-45"]) {
      expect(() => expiryOf(when, NOW), when).toThrow(/--expires expects a duration/);
    }
  });
});
