import { describe, expect, it } from "vitest";
import { KeyedLock } from "../../../core/memory/index.js";

/** A promise plus the function that resolves it, to control task order by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe("KeyedLock", () => {
  it("runs tasks of one key one after the other, in call order", async () => {
    const lock = new KeyedLock();
    const events: string[] = [];
    const first = gate();
    const a = lock.run("k", async () => {
      events.push("a start");
      await first.opened;
      events.push("a end");
      return "a";
    });
    const b = lock.run("k", async () => {
      events.push("b start");
      return "b";
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(events).toEqual(["a start"]);
    first.open();
    expect(await Promise.all([a, b])).toEqual(["a", "b"]);
    expect(events).toEqual(["a start", "a end", "b start"]);
  });

  it("runs tasks of different keys concurrently", async () => {
    const lock = new KeyedLock();
    const blocker = gate();
    const events: string[] = [];
    const a = lock.run("a", async () => {
      await blocker.opened;
      events.push("a");
    });
    await lock.run("b", async () => events.push("b"));
    expect(events).toEqual(["b"]);
    blocker.open();
    await a;
    expect(events).toEqual(["b", "a"]);
  });

  it("does not lose read-modify-write updates under contention", async () => {
    const lock = new KeyedLock();
    let value = 0;
    await Promise.all(
      Array.from({ length: 50 }, () =>
        lock.run("counter", async () => {
          const read = value;
          await Promise.resolve();
          value = read + 1;
        }),
      ),
    );
    expect(value).toBe(50);
  });

  it("keeps serving a key after a task failed, and passes the failure to its caller", async () => {
    const lock = new KeyedLock();
    await expect(lock.run("k", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await lock.run("k", async () => "after")).toBe("after");
  });

  it("forgets keys once their queue is empty", async () => {
    const lock = new KeyedLock();
    await Promise.all([lock.run("a", async () => 1), lock.run("b", async () => 2)]);
    await Promise.resolve();
    expect(lock.size).toBe(0);
  });

  it("starts a multi-key task only after earlier tasks of every one of its keys", async () => {
    const lock = new KeyedLock();
    const events: string[] = [];
    const a = gate();
    const b = gate();
    const onA = lock.run("a", async () => {
      await a.opened;
      events.push("a");
    });
    const onB = lock.run("b", async () => {
      await b.opened;
      events.push("b");
    });
    const both = lock.runAll(["b", "a"], async () => {
      events.push("both");
    });
    const afterBoth = lock.run("a", async () => {
      events.push("a again");
    });
    a.open();
    await onA;
    await Promise.resolve();
    expect(events).toEqual(["a"]);
    b.open();
    await Promise.all([onB, both, afterBoth]);
    expect(events).toEqual(["a", "b", "both", "a again"]);
  });

  it("never deadlocks two multi-key tasks that name the same keys in opposite orders", async () => {
    const lock = new KeyedLock();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        lock.runAll(i % 2 === 0 ? ["x", "y", "z"] : ["z", "y", "x"], async () => {
          await Promise.resolve();
          return i;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
    await Promise.resolve();
    expect(lock.size).toBe(0);
  });
});
