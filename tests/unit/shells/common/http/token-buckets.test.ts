import { describe, expect, it } from "vitest";
import { TokenBuckets } from "../../../../../shells/common/http/token-buckets.js";

describe("token buckets per caller", () => {
  it("lets a burst through, then refuses with the whole seconds until the next token", () => {
    const clock = { ms: 0 };
    const buckets = new TokenBuckets({ ratePerSecond: 0.5, burst: 3, now: () => clock.ms });
    expect([1, 2, 3, 4].map(() => buckets.take("a"))).toEqual([0, 0, 0, 2]);
    clock.ms += 1_000;
    expect(buckets.take("a")).toBe(1);
    clock.ms += 1_000;
    expect(buckets.take("a")).toBe(0);
    expect(buckets.take("a")).toBe(2);
  });

  it("keeps one bucket per caller, never filled beyond the burst", () => {
    const clock = { ms: 0 };
    const buckets = new TokenBuckets({ ratePerSecond: 10, burst: 2, now: () => clock.ms });
    expect([buckets.take("a"), buckets.take("a"), buckets.take("a")]).toEqual([0, 0, 1]);
    expect(buckets.take("b")).toBe(0);
    clock.ms += 60_000;
    expect([buckets.take("a"), buckets.take("a"), buckets.take("a")]).toEqual([0, 0, 1]);
  });

  it("starts a forgotten caller over with a full bucket", () => {
    const buckets = new TokenBuckets({ ratePerSecond: 1, burst: 1, now: () => 0 });
    expect([buckets.take("a"), buckets.take("a")]).toEqual([0, 1]);
    buckets.forget("a");
    expect(buckets.take("a")).toBe(0);
  });

  it("refuses a rate or burst that is no limit", () => {
    expect(() => new TokenBuckets({ ratePerSecond: 0, burst: 1 })).toThrow();
    expect(() => new TokenBuckets({ ratePerSecond: 1, burst: 0 })).toThrow();
  });
});
