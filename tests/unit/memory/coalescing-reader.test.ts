import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CoalescingReader } from "../../../core/memory/coalescing-reader.js";

/**
 * A batch read that logs its calls and holds each one open until released (or failed), so tests
 * can ask for more keys while a call is in flight.
 */
class HeldBatchRead {
  readonly calls: (readonly string[])[] = [];
  inFlight = 0;
  maxInFlight = 0;
  readonly #held: { release(): void; fail(error: Error): void }[] = [];

  readonly read = async (keys: readonly string[]): Promise<string[]> => {
    this.calls.push(keys);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise<void>((release, fail) => this.#held.push({ release, fail }));
      return keys.map((key) => `value of ${key} from call ${this.calls.indexOf(keys) + 1}`);
    } finally {
      this.inFlight -= 1;
    }
  };

  /** Lets the oldest held call finish, or fail with `error`. */
  release(error?: Error): void {
    const held = this.#held.shift();
    if (held === undefined) throw new Error("no call is held");
    if (error === undefined) held.release();
    else held.fail(error);
  }

  get heldCount(): number {
    return this.#held.length;
  }
}

/** Lets queued promise callbacks run (the reader starts its first call a microtask later). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe("CoalescingReader", () => {
  it("answers reads asked for together with one batch call of their distinct keys", async () => {
    const batch = new HeldBatchRead();
    const reader = new CoalescingReader(batch.read);
    const reads = [reader.read("a"), reader.read("b"), reader.read("a")];
    await settle();
    expect(batch.calls).toEqual([["a", "b"]]);
    batch.release();
    expect(await Promise.all(reads)).toEqual([
      "value of a from call 1",
      "value of b from call 1",
      "value of a from call 1",
    ]);
  });

  it("keeps one call in flight and merges the reads asked for meanwhile into the next call", async () => {
    const batch = new HeldBatchRead();
    const reader = new CoalescingReader(batch.read);
    const first = reader.read("a");
    await settle();
    const later = [reader.read("a"), reader.read("b"), reader.read("c")];
    await settle();
    expect(batch.calls).toEqual([["a"]]);
    batch.release();
    expect(await first).toBe("value of a from call 1");
    await settle();
    // "a" asked for again while call 1 ran is answered by call 2, which started after it.
    expect(batch.calls).toEqual([["a"], ["a", "b", "c"]]);
    batch.release();
    expect(await Promise.all(later)).toEqual([
      "value of a from call 2",
      "value of b from call 2",
      "value of c from call 2",
    ]);
    expect(batch.maxInFlight).toBe(1);
  });

  it("rejects every caller of a failed call with its error, and only those", async () => {
    const batch = new HeldBatchRead();
    const reader = new CoalescingReader(batch.read);
    const failing = [reader.read("a"), reader.read("b"), reader.read("b")];
    await settle();
    const next = reader.read("c");
    await settle();
    const outage = new Error("store down");
    batch.release(outage);
    for (const read of failing) await expect(read).rejects.toBe(outage);
    await settle();
    batch.release();
    expect(await next).toBe("value of c from call 2");
  });

  it("rejects the callers when the batch read throws before returning a promise", async () => {
    const reader = new CoalescingReader<string, string>(() => {
      throw new Error("bad filter");
    });
    await expect(Promise.all([reader.read("a"), reader.read("b")])).rejects.toThrow("bad filter");
    // The reader is not stuck: the next read gets its own call (and its own failure).
    await expect(reader.read("c")).rejects.toThrow("bad filter");
  });

  it("rejects the callers when the batch read returns the wrong number of values", async () => {
    const reader = new CoalescingReader(async (keys: readonly string[]) => keys.slice(1));
    const reads = [reader.read("a"), reader.read("b")];
    for (const read of reads) await expect(read).rejects.toThrow("returned 1 values for 2 keys");
  });

  it("asks for at most maxKeys keys per call and leaves the rest for the next", async () => {
    const batch = new HeldBatchRead();
    const reader = new CoalescingReader(batch.read, { maxKeys: 2 });
    const reads = ["a", "b", "a", "c", "d", "e"].map((key) => reader.read(key));
    await settle();
    expect(batch.calls).toEqual([["a", "b"]]);
    batch.release();
    await settle();
    batch.release();
    await settle();
    batch.release();
    expect(await Promise.all(reads)).toEqual([
      "value of a from call 1",
      "value of b from call 1",
      "value of a from call 1",
      "value of c from call 2",
      "value of d from call 2",
      "value of e from call 3",
    ]);
    expect(batch.calls).toEqual([["a", "b"], ["c", "d"], ["e"]]);
  });

  it("refuses a maxKeys that is not a positive integer", () => {
    expect(() => new CoalescingReader(async () => [], { maxKeys: 0 })).toThrow("maxKeys");
  });

  it("gives every caller the value of its own key under any interleaving, one call at a time", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ ask: fc.constantFrom("a", "b", "c", "d") }),
            fc.constant("release" as const),
          ),
          { maxLength: 30 },
        ),
        async (steps) => {
          const batch = new HeldBatchRead();
          const reader = new CoalescingReader(async (keys: readonly string[]) =>
            (await batch.read(keys)).map((value, i) => `${keys[i]}|${value}`),
          );
          const reads: { key: string; asked: number; value: Promise<string> }[] = [];
          for (const step of steps) {
            if (step === "release") {
              if (batch.heldCount > 0) batch.release();
            } else {
              reads.push({
                key: step.ask,
                asked: batch.calls.length,
                value: reader.read(step.ask),
              });
            }
            await settle();
          }
          while (batch.heldCount > 0) {
            batch.release();
            await settle();
          }
          for (const read of reads) {
            const value = await read.value;
            expect(value.startsWith(`${read.key}|`)).toBe(true);
            // Answered by a call that started after the read was asked for.
            const call = Number(value.split(" ").at(-1));
            expect(call).toBeGreaterThan(read.asked);
          }
          expect(batch.maxInFlight).toBeLessThanOrEqual(1);
          for (const keys of batch.calls) expect(new Set(keys).size).toBe(keys.length);
        },
      ),
    );
  });
});
