import { describe, expect, it } from "vitest";
import { isAgentServicesError } from "../../../core/errors.js";
import { FakeEmbedder, ManualClock } from "../../../core/testing/index.js";
import { describeEmbedderContract } from "../../contracts/embedder-contract.js";

describeEmbedderContract("FakeEmbedder", async () => ({
  embedder: new FakeEmbedder(),
  cleanup: () => Promise.resolve(),
}));

describe("FakeEmbedder", () => {
  it("returns a pinned vector, normalised, for exactly the pinned text", async () => {
    const embedder = new FakeEmbedder({ dimensions: 2 });
    embedder.setVector("pinned", [3, 4]);
    expect(await embedder.embedQuery("pinned")).toEqual([0.6, 0.8]);
    expect(await embedder.embedQuery("pinned ")).not.toEqual([0.6, 0.8]);
  });

  it("fails with embedder_failed while told to fail and records the call", async () => {
    const embedder = new FakeEmbedder();
    embedder.failWith(new Error("rate limited"));
    const error = await embedder.embedDocuments(["x"]).catch((e: unknown) => e);
    expect(isAgentServicesError(error, "embedder_failed")).toBe(true);
    expect(embedder.calls).toEqual([{ method: "documents", texts: ["x"] }]);
  });

  it("makes texts that share words more similar than texts that share none", async () => {
    const embedder = new FakeEmbedder({ dimensions: 256 });
    const [a, b, c] = await embedder.embedDocuments([
      "deploy on friday",
      "friday deploy window",
      "green tea",
    ]);
    const dot = (x: number[] = [], y: number[] = []) =>
      x.reduce((s, v, i) => s + v * (y[i] ?? 0), 0);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c));
  });
});

describe("ManualClock", () => {
  it("stands still until advanced or set", () => {
    const clock = new ManualClock("2026-11-21T10:00:00.000Z");
    expect(clock.now().toISOString()).toBe("2026-11-21T10:00:00.000Z");
    clock.advance(90 * 60 * 1000);
    expect(clock.now().toISOString()).toBe("2026-11-21T11:30:00.000Z");
    clock.set("2027-01-01T00:00:00.000Z");
    expect(clock.now().toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });

  it("rejects something that is not an instant", () => {
    expect(() => new ManualClock("not a date")).toThrow(/not an instant/);
  });
});
