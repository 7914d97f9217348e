import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  WriteBatcher,
  type MetadataUpdate,
  type WriteSink,
} from "../../../adapters/chroma/write-batcher.js";
import type { Metadata, VectorRecord } from "../../../core/ports/vector-store.js";

type Call =
  | { kind: "upsert"; records: readonly VectorRecord[] }
  | { kind: "update"; updates: readonly MetadataUpdate[] }
  | { kind: "delete"; ids: readonly string[] };

/**
 * An in-memory sink that logs every call and can hold calls open (`hold()`), so tests can
 * queue operations while a call is in flight and then let it finish or fail.
 */
class FakeSink implements WriteSink {
  readonly calls: Call[] = [];
  readonly state = new Map<string, { document: string; metadata: Metadata }>();
  inFlight = 0;
  maxInFlight = 0;
  #held: { release: () => void; fail: (error: Error) => void }[] = [];
  #holding = false;
  failNext: Error | undefined;

  hold(): void {
    this.#holding = true;
  }

  /** Lets the oldest held call proceed (or fail with `error`). */
  release(error?: Error): void {
    const held = this.#held.shift();
    if (held === undefined) throw new Error("no call is held");
    if (error === undefined) held.release();
    else held.fail(error);
  }

  get heldCount(): number {
    return this.#held.length;
  }

  async upsert(records: readonly VectorRecord[]): Promise<void> {
    await this.#enter({ kind: "upsert", records });
    if (records.some((r) => r.document === "refused by the backend")) {
      throw new Error("the backend refuses this record");
    }
    // As the sink's contract says: the metadata keys merge into an existing id's.
    for (const r of records) {
      const metadata = { ...this.state.get(r.id)?.metadata, ...r.metadata };
      this.state.set(r.id, { document: r.document, metadata });
    }
  }

  async update(updates: readonly MetadataUpdate[]): Promise<void> {
    await this.#enter({ kind: "update", updates });
    for (const { id, metadata } of updates) {
      const stored = this.state.get(id);
      if (stored !== undefined)
        this.state.set(id, { ...stored, metadata: { ...stored.metadata, ...metadata } });
    }
  }

  async delete(ids: readonly string[]): Promise<readonly string[]> {
    await this.#enter({ kind: "delete", ids });
    const existed = ids.filter((id) => this.state.has(id));
    for (const id of existed) this.state.delete(id);
    return existed;
  }

  async #enter(call: Call): Promise<void> {
    this.calls.push(call);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.failNext !== undefined) {
        const error = this.failNext;
        this.failNext = undefined;
        throw error;
      }
      if (this.#holding) {
        await new Promise<void>((release, fail) => this.#held.push({ release, fail }));
      }
    } finally {
      this.inFlight -= 1;
    }
  }
}

/** The ids an upsert call carried (fails the test if the call is not an upsert). */
function upsertedIds(call: Call | undefined): string[] {
  if (call?.kind !== "upsert") throw new Error(`expected an upsert call, got ${call?.kind}`);
  return call.records.map((r) => r.id);
}

function rec(id: string, document = id, metadata: Metadata = {}): VectorRecord {
  return { id, vector: [1, 0], document, metadata };
}

/** Lets pending I/O-turn callbacks (the batcher's deferred flush) and promise chains run. */
async function turn(): Promise<void> {
  for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

function settledState<T>(promise: Promise<T>): { value?: T; error?: unknown; done: boolean } {
  const state: { value?: T; error?: unknown; done: boolean } = { done: false };
  promise.then(
    (value) => Object.assign(state, { value, done: true }),
    (error: unknown) => Object.assign(state, { error, done: true }),
  );
  return state;
}

describe("WriteBatcher", () => {
  it("merges upserts issued together into one sink call where the last write of an id wins", async () => {
    const sink = new FakeSink();
    const writes = new WriteBatcher(sink);
    await Promise.all([
      writes.upsert([rec("a", "a1")]),
      writes.upsert([rec("b")]),
      writes.upsert([rec("a", "a2")]),
    ]);
    expect(sink.calls).toHaveLength(1);
    expect(sink.calls[0]).toMatchObject({ kind: "upsert" });
    expect(sink.state.get("a")?.document).toBe("a2");
    expect([...sink.state.keys()].sort()).toEqual(["a", "b"]);
  });

  it("retries a failed merged call per caller, so one caller's bad record fails only that caller (issue 7)", async () => {
    const sink = new FakeSink();
    const writes = new WriteBatcher(sink);
    const results = await Promise.allSettled([
      writes.upsert([rec("a")]),
      writes.upsert([rec("bad", "refused by the backend")]),
      writes.upsert([rec("b"), rec("c")]),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect([...sink.state.keys()].sort()).toEqual(["a", "b", "c"]);
    // One merged call, then one per caller.
    expect(sink.calls.map((c) => upsertedIds(c))).toEqual([
      ["a", "bad", "b", "c"],
      ["a"],
      ["bad"],
      ["b", "c"],
    ]);
  });

  it("keeps at most one sink call in flight and merges everything queued meanwhile into the next", async () => {
    const sink = new FakeSink();
    sink.hold();
    const writes = new WriteBatcher(sink);
    const first = writes.upsert([rec("a")]);
    await turn();
    const later = Array.from({ length: 8 }, (_, i) => writes.upsert([rec(`r${i}`)]));
    await turn();
    expect(sink.calls).toHaveLength(1);
    sink.release();
    await first;
    await turn();
    expect(sink.calls).toHaveLength(2);
    expect(sink.calls[1]).toMatchObject({ kind: "upsert" });
    expect(upsertedIds(sink.calls[1])).toHaveLength(8);
    sink.release();
    await Promise.all(later);
    expect(sink.maxInFlight).toBe(1);
  });

  it("resolves a caller only once the sink call holding its operation has finished", async () => {
    const sink = new FakeSink();
    sink.hold();
    const writes = new WriteBatcher(sink);
    const pending = settledState(writes.upsert([rec("a")]));
    await turn();
    expect(pending.done).toBe(false);
    sink.release();
    await turn();
    expect(pending.done).toBe(true);
    expect(sink.state.has("a")).toBe(true);
  });

  it("merges metadata updates of the same id in the order they were issued", async () => {
    const sink = new FakeSink();
    const writes = new WriteBatcher(sink);
    await writes.upsert([rec("a", "a", { n: 0, keep: "yes" })]);
    await Promise.all([
      writes.updateMetadata([{ id: "a", metadata: { n: 1, x: "first" } }]),
      writes.updateMetadata([{ id: "a", metadata: { n: 2 } }]),
      writes.updateMetadata([{ id: "ghost", metadata: { n: 9 } }]),
    ]);
    expect(sink.calls.map((c) => c.kind)).toEqual(["upsert", "update"]);
    expect(sink.calls[1]).toEqual({
      kind: "update",
      updates: [
        { id: "a", metadata: { n: 2, x: "first" } },
        { id: "ghost", metadata: { n: 9 } },
      ],
    });
    expect(sink.state.get("a")?.metadata).toEqual({ n: 2, keep: "yes", x: "first" });
  });

  it("keeps the order of operations of different kinds, so an upsert queued before a delete of its id applies first", async () => {
    const sink = new FakeSink();
    const writes = new WriteBatcher(sink);
    const results = await Promise.all([
      writes.upsert([rec("a", "v1")]),
      writes.delete(["a"]),
      writes.upsert([rec("b")]),
      writes.upsert([rec("c")]),
      writes.updateMetadata([{ id: "b", metadata: { seen: true } }]),
      writes.delete(["c"]),
    ]);
    expect(sink.calls.map((c) => c.kind)).toEqual([
      "upsert",
      "delete",
      "upsert",
      "update",
      "delete",
    ]);
    expect(results[1]).toBe(1);
    expect(results[5]).toBe(1);
    expect([...sink.state.keys()]).toEqual(["b"]);
    expect(sink.state.get("b")?.metadata).toEqual({ seen: true });
  });

  it("counts a deleted id only for the first of several callers deleting it in one call", async () => {
    const sink = new FakeSink();
    const writes = new WriteBatcher(sink);
    await writes.upsert([rec("a"), rec("b")]);
    const counts = await Promise.all([
      writes.delete(["a", "a", "x"]),
      writes.delete(["a", "b"]),
      writes.delete(["b"]),
    ]);
    expect(sink.calls.filter((c) => c.kind === "delete")).toHaveLength(1);
    expect(counts).toEqual([1, 1, 0]);
  });

  it("rejects exactly the callers whose operations were in the failed call, and carries on", async () => {
    const sink = new FakeSink();
    sink.hold();
    const writes = new WriteBatcher(sink);
    const before = writes.upsert([rec("before")]);
    await turn();
    const failing = [writes.upsert([rec("a")]), writes.upsert([rec("b")])].map(settledState);
    const after = settledState(writes.delete(["before"]));
    await turn();
    sink.release();
    await before;
    await turn();
    const boom = new Error("chroma is down");
    sink.release(boom);
    await turn();
    // Each caller is retried on its own before it is rejected.
    sink.release(boom);
    await turn();
    sink.release(boom);
    await turn();
    expect(failing.map((f) => f.error)).toEqual([boom, boom]);
    sink.release();
    await turn();
    expect(after).toMatchObject({ done: true, value: 1 });
    expect(sink.state.size).toBe(0);
  });

  it("rejects the caller when its call fails before it starts, and resolves later callers", async () => {
    const sink = new FakeSink();
    sink.failNext = new Error("refused");
    const writes = new WriteBatcher(sink);
    await expect(writes.updateMetadata([{ id: "a", metadata: { n: 1 } }])).rejects.toThrow(
      "refused",
    );
    await expect(writes.upsert([rec("a")])).resolves.toBeUndefined();
    expect(sink.state.has("a")).toBe(true);
  });

  it("splits operations over maxBatch ids into several calls and fails the caller if any part fails", async () => {
    const sink = new FakeSink();
    sink.hold();
    const writes = new WriteBatcher(sink, { maxBatch: 3 });
    const big = settledState(writes.upsert(["a", "b", "c", "d", "e"].map((id) => rec(id))));
    const small = settledState(writes.upsert([rec("f")]));
    await turn();
    expect(upsertedIds(sink.calls[0])).toEqual(["a", "b", "c"]);
    sink.release(new Error("first part failed"));
    await turn();
    expect(upsertedIds(sink.calls[1])).toEqual(["d", "e", "f"]);
    sink.release();
    await turn();
    expect(big.error).toEqual(new Error("first part failed"));
    expect(small).toMatchObject({ done: true });
    expect(small.error).toBeUndefined();
  });

  it("answers empty operations without a sink call", async () => {
    const sink = new FakeSink();
    const writes = new WriteBatcher(sink);
    await writes.upsert([]);
    await writes.updateMetadata([{ id: "a", metadata: {} }]);
    expect(await writes.delete([])).toBe(0);
    expect(sink.calls).toEqual([]);
  });

  it("reports idle only once every queued operation has settled", async () => {
    const sink = new FakeSink();
    sink.hold();
    const writes = new WriteBatcher(sink);
    const write = writes.upsert([rec("a")]);
    const idle = settledState(writes.idle());
    await turn();
    expect(idle.done).toBe(false);
    sink.release();
    await write;
    await turn();
    expect(idle.done).toBe(true);
  });

  it("loses no write: any interleaving of concurrent operations ends as if applied one by one", async () => {
    const id = fc.constantFrom("a", "b", "c", "d");
    const op = fc.oneof(
      fc.record({
        kind: fc.constant("upsert" as const),
        ids: fc.array(id, { maxLength: 3 }),
        n: fc.nat(9),
      }),
      fc.record({
        kind: fc.constant("update" as const),
        ids: fc.array(id, { maxLength: 3 }),
        n: fc.nat(9),
      }),
      fc.record({
        kind: fc.constant("delete" as const),
        ids: fc.array(id, { maxLength: 3 }),
        n: fc.nat(9),
      }),
    );
    // Each group is issued together; groups follow each other while earlier ones are in flight.
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { maxLength: 6 }), { maxLength: 5 }),
        async (groups) => {
          const sink = new FakeSink();
          const writes = new WriteBatcher(sink, { maxBatch: 3 });
          const reference = new FakeSink();
          const expectedCounts: number[] = [];
          const pending: Promise<unknown>[] = [];
          for (const group of groups) {
            for (const { kind, ids, n } of group) {
              if (kind === "upsert") {
                const records = ids.map((i) => rec(i, `${i}${n}`, { n }));
                pending.push(writes.upsert(records));
                await reference.upsert([...new Map(records.map((r) => [r.id, r])).values()]);
              } else if (kind === "update") {
                const updates = ids.map((i) => ({ id: i, metadata: { m: n } }));
                pending.push(writes.updateMetadata(updates));
                await reference.update(updates);
              } else {
                pending.push(writes.delete(ids));
                expectedCounts.push((await reference.delete([...new Set(ids)])).length);
              }
            }
            await new Promise((resolve) => setImmediate(resolve));
          }
          const results = await Promise.all(pending);
          expect(sink.state).toEqual(reference.state);
          expect(results.filter((r) => typeof r === "number")).toEqual(expectedCounts);
          expect(sink.maxInFlight).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 200 },
    );
  });
  it("merges upserts of an id as applying them one by one does: earlier metadata keys stay (issue 20)", async () => {
    const id = fc.constantFrom("a", "b", "c");
    const metadata = fc.dictionary(fc.constantFrom("x", "y", "z"), fc.nat(3), { maxKeys: 3 });
    const op = fc.oneof(
      fc.record({
        kind: fc.constant("upsert" as const),
        items: fc.array(fc.record({ id, metadata, n: fc.nat(9) }), { maxLength: 3 }),
      }),
      fc.record({
        kind: fc.constant("update" as const),
        items: fc.array(fc.record({ id, metadata, n: fc.nat(9) }), { maxLength: 3 }),
      }),
      fc.record({ kind: fc.constant("delete" as const), ids: fc.array(id, { maxLength: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 8 }), async (ops) => {
        const sink = new FakeSink();
        const writes = new WriteBatcher(sink, { maxBatch: 4 });
        const reference = new FakeSink();
        const pending: Promise<unknown>[] = [];
        // Issued together, so they share calls; the reference applies them one by one.
        for (const op of ops) {
          if (op.kind === "upsert") {
            const records = op.items.map((i) => rec(i.id, `${i.id}${i.n}`, i.metadata));
            pending.push(writes.upsert(records));
            for (const r of records) await reference.upsert([r]);
          } else if (op.kind === "update") {
            const updates = op.items.map((i) => ({ id: i.id, metadata: i.metadata }));
            pending.push(writes.updateMetadata(updates));
            for (const u of updates) await reference.update([u]);
          } else {
            pending.push(writes.delete(op.ids));
            await reference.delete([...new Set(op.ids)]);
          }
        }
        await Promise.all(pending);
        expect(sink.state).toEqual(reference.state);
      }),
      { numRuns: 300 },
    );
  });
});
