import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { FileWriteJournal, type JournalFiles } from "../../../adapters/system/index.js";
import { nodeJournalFiles } from "../../../adapters/system/journal-files.js";
import { AgentServicesError } from "../../../core/errors.js";
import {
  JournaledVectorStore,
  type JournalEvent,
  type JournaledVectorStoreOptions,
} from "../../../core/storage/journaled-vector-store.js";
import { mergeWrites } from "../../../core/storage/merge-writes.js";
import type { VectorRecord, VectorStore } from "../../../core/ports/vector-store.js";
import type { JournalEntry, WriteJournal } from "../../../core/ports/write-journal.js";
import { InMemoryVectorStore, InMemoryWriteJournal } from "../../../core/testing/index.js";
import { describeVectorStoreContract } from "../../contracts/vector-store-contract.js";
import { crashableJournalFiles, marksShowApplied } from "../../support/journal-marks.js";

describeVectorStoreContract("JournaledVectorStore over InMemoryVectorStore", async () => {
  const store = new JournaledVectorStore(new InMemoryVectorStore(), new InMemoryWriteJournal(), {
    retryDelay: async () => undefined,
  });
  return { store, cleanup: () => store.close() };
});

const SPACE = { embedderId: "test", dimensions: 2 };

function record(id: string, metadata: VectorRecord["metadata"] = {}): VectorRecord {
  return { id, vector: [1, 0], document: `doc ${id}`, metadata };
}

/** Resolves the next time `release()` is called (a gate a test opens by hand). */
function gate(): { wait: () => Promise<void>; release: () => void } {
  let open: (() => void)[] = [];
  return {
    wait: () => new Promise<void>((resolve) => open.push(resolve)),
    release: () => {
      for (const resolve of open) resolve();
      open = [];
    },
  };
}

/**
 * An in-memory store whose writes can be held (they wait until released), made to fail (as if
 * the server were down: `ping` fails too), or made to refuse one id (a value it rejects while it
 * answers). Counts its write calls.
 */
class ControlledStore extends InMemoryVectorStore {
  down = false;
  refuse = new Set<string>();
  held: ReturnType<typeof gate> | undefined;
  writeCalls = 0;

  async #writeCall(ids: readonly string[]): Promise<void> {
    this.writeCalls += 1;
    if (this.held !== undefined) await this.held.wait();
    if (this.down) throw new AgentServicesError("store_unavailable", "down");
    const refused = ids.find((id) => this.refuse.has(id));
    if (refused !== undefined)
      throw new AgentServicesError("store_unavailable", `refused ${refused}`);
  }
  override async upsert(records: readonly VectorRecord[]): Promise<void> {
    await this.#writeCall(records.map((r) => r.id));
    return super.upsert(records);
  }
  override async updateMetadata(
    updates: readonly { id: string; metadata: VectorRecord["metadata"] }[],
  ) {
    await this.#writeCall(updates.map((u) => u.id));
    return super.updateMetadata(updates);
  }
  override async delete(ids: readonly string[]): Promise<number> {
    await this.#writeCall(ids);
    return super.delete(ids);
  }
  override async ping(): Promise<void> {
    if (this.down) throw new AgentServicesError("store_unavailable", "down");
  }
  /** Closing only records it, so a test can still look inside. */
  closed = false;
  override async close(): Promise<void> {
    this.closed = true;
  }
}

/** An in-memory journal whose appends fail like a full disk while `full` (counted in `attempts`). */
class FullableJournal extends InMemoryWriteJournal {
  full = false;
  attempts = 0;
  override async append(entries: readonly JournalEntry[]): Promise<number> {
    this.attempts += 1;
    if (this.full) {
      throw new AgentServicesError("insufficient_storage", "no space left for the write journal");
    }
    return super.append(entries);
  }
}

function journaled(
  inner: VectorStore,
  journal: WriteJournal = new InMemoryWriteJournal(),
  options: Partial<JournaledVectorStoreOptions> = {},
) {
  const events: JournalEvent[] = [];
  const store = new JournaledVectorStore(inner, journal, {
    retryDelay: async () => new Promise((resolve) => setTimeout(resolve, 1)),
    onEvent: (event) => events.push(event),
    ...options,
  });
  // The tests that look inside the journal pass an InMemoryWriteJournal (or none).
  return { store, journal: journal as InMemoryWriteJournal, events };
}

describe("JournaledVectorStore", () => {
  it("acknowledges a write once the journal holds it, before the store does", async () => {
    const inner = new ControlledStore();
    const { store, journal } = journaled(inner);
    await store.bind(SPACE);
    inner.held = gate();
    await store.upsert([record("a")]);
    expect(journal.kept).toEqual([{ op: "upsert", records: [record("a")] }]);
    expect(await inner.count()).toBe(0);
    // A read of that id waits until the store has it: read-your-writes.
    const read = store.get(["a"]);
    inner.held.release();
    inner.held = undefined;
    expect((await read).map((r) => r.id)).toEqual(["a"]);
    expect(await inner.count()).toBe(1);
  });

  it("merges the writes that wait into few store calls, in order, and empties the journal", async () => {
    const inner = new ControlledStore();
    const { store, journal } = journaled(inner);
    await store.bind(SPACE);
    inner.held = gate();
    await store.upsert([record("first")]); // its store call is now held
    const writes = [
      store.upsert([record("a", { n: 1 })]),
      store.upsert([record("b")]),
      store.updateMetadata([{ id: "a", metadata: { tag: "x" } }]),
      store.delete(["b"]),
      store.upsert([record("a", { n: 2 })]),
    ];
    await Promise.all(writes);
    inner.held.release();
    inner.held = undefined;
    expect(await store.count()).toBe(2);
    // first; then [a, b] upserts, one update, one delete, one upsert.
    expect(inner.writeCalls).toBe(5);
    const [a] = await store.get(["a"]);
    expect(a?.metadata).toEqual({ n: 2, tag: "x" });
    expect(await store.get(["b"])).toEqual([]);
    expect(journal.kept).toEqual([]);
  });

  it("counts what a delete removed from pending writes and from the store", async () => {
    const inner = new ControlledStore();
    const { store } = journaled(inner);
    await store.bind(SPACE);
    await store.upsert([record("stored")]);
    await store.count(); // landed
    inner.held = gate();
    await store.upsert([record("pending")]);
    const removed = store.delete(["stored", "pending", "never", "pending"]);
    inner.held.release();
    inner.held = undefined;
    expect(await removed).toBe(2);
    expect(await store.delete(["pending"])).toBe(0);
  });

  it("after a crash, writes what the journal kept to the store before anything else", async () => {
    const inner = new ControlledStore();
    const first = journaled(inner);
    await first.store.bind(SPACE);
    inner.down = true; // nothing reaches the store; the process then "crashes"
    await first.store.upsert([record("a")]);
    await first.store.updateMetadata([{ id: "a", metadata: { seen: true } }]);
    await expect.poll(() => first.events.some((e) => e.kind === "store_down")).toBe(true);
    inner.down = false;

    const again = journaled(inner, first.journal.reopen());
    await again.store.bind(SPACE);
    expect(again.events).toContainEqual({ kind: "replayed", entries: 2, ids: 2 });
    const [a] = await inner.get(["a"]);
    expect(a?.metadata).toEqual({ seen: true });
    expect(again.journal.kept).toEqual([]);
  });

  it("refuses writes fast while the store is down, keeps what it acknowledged, and recovers", async () => {
    const inner = new ControlledStore();
    const { store, events } = journaled(inner);
    await store.bind(SPACE);
    inner.down = true;
    await store.upsert([record("acknowledged")]);
    await expect.poll(() => events.some((e) => e.kind === "store_down")).toBe(true);
    expect(events.find((e) => e.kind === "store_down")).toMatchObject({ answers: false });
    await expect(store.upsert([record("refused")])).rejects.toMatchObject({
      code: "store_busy",
      message: expect.stringMatching(/does not answer.*retry later/),
    });
    expect(store.refusal).toMatchObject({ code: "store_busy" });
    await expect(store.count()).rejects.toMatchObject({ code: "store_busy" });
    inner.down = false;
    await expect.poll(() => events.some((e) => e.kind === "store_up")).toBe(true);
    expect(store.refusal).toBeUndefined();
    await store.upsert([record("after")]);
    expect((await store.get(["acknowledged", "refused", "after"])).map((r) => r.id)).toEqual([
      "acknowledged",
      "after",
    ]);
  });

  it("never gives up a write the store refuses while it answers: retries it in order, one event per change", async () => {
    const inner = new ControlledStore();
    let attempts = 0;
    const { store, events, journal } = journaled(inner, undefined, {
      retryDelay: async () => {
        attempts += 1;
        await new Promise((resolve) => setTimeout(resolve, 1));
      },
    });
    await store.bind(SPACE);
    inner.held = gate();
    await store.upsert([record("first")]);
    inner.refuse.add("bad"); // a full disk under the store, say
    await Promise.all([
      store.upsert([record("good1")]),
      store.upsert([record("bad")]),
      store.upsert([record("good2")]),
    ]);
    inner.held.release();
    inner.held = undefined;
    await expect.poll(() => attempts).toBeGreaterThan(5);
    // Still refused, still journaled, nothing after it landed out of order.
    expect(journal.kept.length).toBe(3);
    expect(await inner.get(["good2"])).toEqual([]);
    await expect(store.upsert([record("later")])).rejects.toMatchObject({ code: "store_busy" });
    expect(events.filter((e) => e.kind === "store_down")).toHaveLength(1);
    expect(events.find((e) => e.kind === "store_down")).toMatchObject({ answers: true });
    inner.refuse.clear(); // space freed
    await expect.poll(() => store.refusal).toBeUndefined();
    expect((await store.get(["good1", "bad", "good2"])).map((r) => r.id)).toEqual([
      "good1",
      "bad",
      "good2",
    ]);
    expect(events.map((e) => e.kind)).toEqual(["store_down", "store_up"]);
    expect(journal.kept).toEqual([]);
  });

  it("refuses writes with insufficient_storage while the journal's disk is full, probes, and takes them again", async () => {
    const inner = new ControlledStore();
    const journal = new FullableJournal();
    const probe = gate();
    const { store, events } = journaled(inner, journal, { fullDiskProbe: probe.wait });
    await store.bind(SPACE);
    await store.upsert([record("a")]);
    journal.full = true;
    await expect(store.upsert([record("b")])).rejects.toMatchObject({
      code: "insufficient_storage",
    });
    const attemptsWhenFull = journal.attempts;
    // Up front, without touching the disk, until the probe is due.
    await expect(store.upsert([record("c")])).rejects.toMatchObject({
      code: "insufficient_storage",
      message: expect.stringMatching(/disk is full; writes are refused until space is freed/),
    });
    expect(journal.attempts).toBe(attemptsWhenFull);
    expect(store.refusal).toMatchObject({ code: "insufficient_storage" });
    // Reads keep working.
    expect((await store.get(["a"])).map((r) => r.id)).toEqual(["a"]);
    journal.full = false;
    probe.release();
    await expect
      .poll(async () =>
        store.upsert([record("d")]).then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    expect(store.refusal).toBeUndefined();
    expect(events.map((e) => e.kind)).toEqual(["journal_full", "journal_writable"]);
    expect((await store.get(["a", "b", "c", "d"])).map((r) => r.id)).toEqual(["a", "d"]);
  });

  it("holds writers back when too many ids wait for the store", async () => {
    const inner = new ControlledStore();
    const { store } = journaled(inner, undefined, { maxPendingIds: 3 });
    await store.bind(SPACE);
    inner.held = gate();
    await store.upsert([record("a"), record("b"), record("c")]);
    let done = false;
    const blocked = store.upsert([record("d")]).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    expect(store.pendingIds).toBe(3);
    inner.held.release();
    inner.held = undefined;
    await blocked;
    expect(await store.count()).toBe(4);
  });

  it("refuses a writer that waited roomWait for room with store_busy, naming the backlog", async () => {
    const inner = new ControlledStore();
    const patience = gate();
    const { store } = journaled(inner, undefined, { maxPendingIds: 2, roomWait: patience.wait });
    await store.bind(SPACE);
    inner.held = gate();
    await store.upsert([record("a"), record("b")]);
    const refused = store.upsert([record("c")]).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 10));
    patience.release();
    expect(await refused).toMatchObject({
      code: "store_busy",
      message: expect.stringMatching(/backlog is full: 2 ids wait/),
    });
    inner.held.release();
    inner.held = undefined;
    await store.upsert([record("d")]);
    expect(await store.count()).toBe(3);
  });

  it("holds the backlog to maxBacklogMs of the store's measured drain rate", async () => {
    const inner = new ControlledStore();
    let clock = 0;
    const { store } = journaled(inner, undefined, {
      now: () => clock,
      maxBacklogMs: 1_000,
      maxBatchIds: 2,
    });
    await store.bind(SPACE);
    // The store takes 2 ids in 1,000 ms: 2 ids/s, so the backlog holds 2 ids (one batch).
    const slow = gate();
    inner.held = slow;
    const first = store.upsert([record("a"), record("b")]);
    await first;
    await expect.poll(() => inner.writeCalls).toBe(1);
    clock += 1_000;
    slow.release();
    inner.held = undefined;
    await store.count();
    inner.held = gate();
    await store.upsert([record("c"), record("d")]);
    let third = false;
    const waiting = store.upsert([record("e")]).then(() => (third = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(third).toBe(false);
    inner.held.release();
    inner.held = undefined;
    await waiting;
    expect(await store.count()).toBe(5);
  });

  it("closes within drainDeadline whatever the backlog; the journal keeps it and the next start replays it", async () => {
    const inner = new ControlledStore();
    const deadline = gate();
    const journal = new InMemoryWriteJournal();
    const { store, events } = journaled(inner, journal, { drainDeadline: deadline.wait });
    await store.bind(SPACE);
    inner.held = gate();
    await store.upsert([record("a")]);
    await store.upsert([record("b"), record("c")]);
    const closed = store.close();
    await expect(store.upsert([record("d")])).rejects.toMatchObject({ code: "store_unavailable" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    deadline.release();
    await closed;
    expect(events.find((e) => e.kind === "backlog_kept")).toMatchObject({ pendingIds: 3 });
    expect(journal.kept.length).toBeGreaterThanOrEqual(1);
    inner.held.release();
    inner.held = undefined;
    const again = journaled(inner, journal.reopen());
    await again.store.bind(SPACE);
    expect(await again.store.count()).toBe(3);
    expect(again.events.find((e) => e.kind === "replayed")).toBeDefined();
    await again.store.close();
  });

  it("closed with drain: false during the start's replay, lands nothing more and the next start replays the rest (issue 26)", async () => {
    const inner = new ControlledStore();
    const first = journaled(inner, undefined, { maxBatchIds: 1 });
    await first.store.bind(SPACE);
    inner.held = gate(); // acknowledged, never in the store; then the process "crashes"
    for (const id of ["a", "b", "c", "d"]) await first.store.upsert([record(id)]);
    const callsBefore = inner.writeCalls;

    inner.held = gate(); // the replay's first batch waits in the store
    const second = journaled(inner, first.journal.reopen(), { maxBatchIds: 1 });
    const bound = second.store.bind(SPACE).catch((e: unknown) => e);
    await expect.poll(() => inner.writeCalls).toBeGreaterThan(callsBefore);
    const closed = second.store.close({ drain: false });
    expect(await bound).toMatchObject({ code: "store_unavailable" });
    inner.held.release(); // the batch under way finishes; no other starts
    inner.held = undefined;
    await closed;
    expect(await inner.count()).toBeLessThanOrEqual(1);
    const kept = second.events.find((e) => e.kind === "backlog_kept");
    expect(kept).toMatchObject({ pendingIds: expect.any(Number) as number });
    expect((kept as { pendingIds: number }).pendingIds).toBeGreaterThanOrEqual(3);

    const third = journaled(inner, second.journal.reopen());
    await third.store.bind(SPACE);
    expect(await third.store.count()).toBe(4);
    await third.store.close();
  });

  it("bounds the wait of the snapshot mark at shutdown by drainDeadline", async () => {
    const inner = new ControlledStore();
    const deadline = gate();
    const { store } = journaled(inner, undefined, { drainDeadline: deadline.wait });
    await store.bind(SPACE);
    inner.held = gate();
    await store.upsert([record("a")]);
    const marked = store.writeSnapshotMark("m").catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 10));
    deadline.release();
    expect(await marked).toMatchObject({
      code: "store_busy",
      message: expect.stringMatching(/drain deadline/),
    });
    expect(await inner.readSnapshotMark()).toBeUndefined();
    inner.held.release();
    inner.held = undefined;
    await store.close();
  });

  it("never rolls the store back at a restart: applied entries are skipped, a corrupt frame costs itself only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "journaled-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const inner = new ControlledStore();
    const { files, crash } = crashableJournalFiles();
    const first = journaled(inner, new FileWriteJournal(dir, { markIntervalMs: 0, files }));
    await first.store.bind(SPACE);
    for (let i = 0; i < 20; i += 1) await first.store.upsert([record(`m${i}`)]);
    for (let i = 0; i < 20; i += 1) await first.store.delete([`m${i}`]);
    await first.store.upsert([record("kept")]);
    expect(await first.store.count()).toBe(1);
    await marksShowApplied(dir); // the applied mark is written
    // A crash (no close: the first journal touches no file after it), and a bit flipped in a
    // frame in the middle of the segment.
    crash();
    const [name] = readdirSync(dir).filter((n) => n.endsWith(".wal"));
    const path = join(dir, name as string);
    const bytes = readFileSync(path);
    const at = bytes.indexOf(Buffer.from('"m5"'));
    bytes.writeUInt8((bytes[at + 1] as number) ^ 0xff, at + 1);
    writeFileSync(path, bytes);
    const again = journaled(inner, new FileWriteJournal(dir));
    await again.store.bind(SPACE);
    expect(await again.store.count()).toBe(1);
    expect((await inner.get(["m5", "m6", "kept"])).map((r) => r.id)).toEqual(["kept"]);
    await again.store.close();
  });

  it("on a full disk (journal and store): keeps every acknowledged write, refuses new ones with a reason, and catches up by itself once space returns", async () => {
    const dir = mkdtempSync(join(tmpdir(), "journaled-full-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const disk = { full: false };
    const enospc = () => Object.assign(new Error("ENOSPC: injected"), { code: "ENOSPC" });
    const files: JournalFiles = {
      ...nodeJournalFiles,
      open: async (path, flags) => {
        if (disk.full && flags === "w") throw enospc();
        const handle = await nodeJournalFiles.open(path, flags);
        return {
          writev: async (buffers) => {
            if (disk.full) throw enospc();
            return handle.writev(buffers);
          },
          datasync: () => handle.datasync(),
          truncate: (length) => handle.truncate(length),
          close: () => handle.close(),
        };
      },
    };
    const inner = new ControlledStore();
    const { store, events } = journaled(inner, new FileWriteJournal(dir, { files }), {
      fullDiskProbe: () => new Promise((resolve) => setTimeout(resolve, 5)),
    });
    await store.bind(SPACE);
    inner.held = gate();
    for (let i = 0; i < 5; i += 1) await store.upsert([record(`before${i}`)]);
    // The disk fills: Chroma refuses the batch it holds, the journal cannot append.
    disk.full = true;
    inner.refuse.add("before0");
    inner.held.release();
    inner.held = undefined;
    await expect.poll(() => store.refusal?.code).toBe("store_busy");
    await expect(store.upsert([record("during")])).rejects.toMatchObject({ code: "store_busy" });
    expect(store.pendingIds).toBe(5);
    // Space returns: the backlog lands, writes are taken again, nothing was given up.
    inner.refuse.clear();
    disk.full = false;
    await expect.poll(() => store.refusal).toBeUndefined();
    await store.upsert([record("after")]);
    expect(await store.count()).toBe(6);
    expect(events.map((e) => e.kind)).toEqual(["store_down", "store_up"]);
    await store.close();
  });

  it("gathers writes for batchDelay, cut short by a reader", async () => {
    const inner = new ControlledStore();
    const delay = gate();
    const { store } = journaled(inner, undefined, { batchDelay: delay.wait });
    await store.bind(SPACE);
    await Promise.all([store.upsert([record("a")]), store.upsert([record("b")])]);
    await store.upsert([record("c")]);
    expect(inner.writeCalls).toBe(0);
    delay.release();
    await expect.poll(() => inner.writeCalls).toBe(1);
    await store.upsert([record("d")]);
    // Nobody releases the delay this time: the read hurries the write.
    expect((await store.get(["d"])).map((r) => r.id)).toEqual(["d"]);
    expect(inner.writeCalls).toBe(2);
  });

  it("lands everything at close and refuses writes after it", async () => {
    const inner = new ControlledStore();
    const { store, journal } = journaled(inner, undefined, {
      batchDelay: () => new Promise(() => undefined),
    });
    await store.bind(SPACE);
    await store.upsert([record("a"), record("b")]);
    await store.close();
    expect(inner.closed).toBe(true);
    expect(await inner.count()).toBe(2);
    expect(journal.kept).toEqual([]);
    await expect(store.upsert([record("c")])).rejects.toMatchObject({ code: "store_unavailable" });
  });
});

describe("mergeWrites", () => {
  it("has the effect of applying the entries one after another", async () => {
    const entries: JournalEntry[] = [
      { op: "upsert", records: [record("a", { x: 1, y: 1 }), record("b")] },
      { op: "upsert", records: [record("a", { y: 2 })] },
      { op: "update", updates: [{ id: "a", metadata: { z: 1 } }] },
      {
        op: "update",
        updates: [
          { id: "a", metadata: { z: 2 } },
          { id: "b", metadata: { k: 0 } },
        ],
      },
      { op: "delete", ids: ["b"] },
      { op: "delete", ids: ["b", "c"] },
      { op: "upsert", records: [record("b", { again: true })] },
    ];
    const oneByOne = new InMemoryVectorStore();
    const merged = new InMemoryVectorStore();
    const apply = async (store: VectorStore, entry: JournalEntry) => {
      if (entry.op === "upsert") await store.upsert(entry.records);
      else if (entry.op === "update") await store.updateMetadata(entry.updates);
      else await store.delete(entry.ids);
    };
    for (const entry of entries) await apply(oneByOne, entry);
    const batches = mergeWrites(entries, 1000);
    expect(batches.map((b) => b.op)).toEqual(["upsert", "update", "delete", "upsert"]);
    for (const entry of batches) await apply(merged, entry);
    expect(await merged.get(["a", "b", "c"])).toEqual(await oneByOne.get(["a", "b", "c"]));
  });

  it("splits a run that would exceed maxIds", () => {
    const entries: JournalEntry[] = [
      { op: "delete", ids: ["a", "b"] },
      { op: "delete", ids: ["c", "d"] },
      { op: "delete", ids: ["e"] },
    ];
    expect(mergeWrites(entries, 4)).toEqual([
      { op: "delete", ids: ["a", "b", "c", "d"] },
      { op: "delete", ids: ["e"] },
    ]);
  });
});
