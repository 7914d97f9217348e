import type { StoreChange } from "../ports/replication.js";
import type { VectorRecord } from "../ports/vector-store.js";
import { FOLLOW_PAGE_SIZE, type ChangeFollowerDeps } from "./change-follower-deps.js";

/** Rounds a catch-up may repeat because local writes raced it, before it gives up the turn. */
const MAX_RACED_ROUNDS = 8;

/**
 * Keeps a replica's in-process engine equal to the shared store: applies the store's committed
 * changes in order (`ChangeFeed`), woken by the feed's notifications, and catches up by
 * sequence after any disconnect. A change is applied as the record's current state, so applying
 * one twice converges; a gap in the sequence (changes the feed no longer keeps) reloads the whole
 * store into the engine instead.
 *
 * A change this process made itself and added to the engine exactly as stored (a record its
 * own commit created: see `LocalWriteClock`) is neither read nor applied again: the follower
 * moves its cursor past it, and when a notification's head is only such changes it reads
 * nothing. Every other change (another replica's, and this one's updates and deletes) is applied
 * from the feed as before, and gaps are still found by the seqs it reads.
 *
 * Rounds run one at a time. {@link ChangeFollower.catchUp} resolves after a round that started
 * after the call: every change committed before it is then in the engine (a cluster lock calls it
 * after acquiring, so "find a duplicate, else insert" sees the other replicas' writes).
 *
 * @example
 * const follower = new ChangeFollower({ feed, store, engine, localWrites, skip });
 * await follower.start(headBeforeLoad);
 * await follower.catchUp();
 * await follower.stop();
 */
export class ChangeFollower {
  readonly #deps: ChangeFollowerDeps;
  #applied = 0;
  /** The round running now, if any. */
  #round: Promise<void> | undefined;
  /** The round that starts after the running one (shared by every caller waiting for it). */
  #next: Promise<void> | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  #stopped = false;
  /** The notification channel is up and the last round succeeded. */
  #healthy = false;
  #listening = false;
  #failures = 0;
  #retrying = false;
  /** Set when the channel came back: the database may have been restored to an earlier point. */
  #checkHead = false;

  constructor(deps: ChangeFollowerDeps) {
    this.#deps = deps;
  }

  /** The seq of the last change applied. */
  get applied(): number {
    return this.#applied;
  }

  /** True while the notification channel is up and the last round reached the feed. */
  get healthy(): boolean {
    return this.#healthy && this.#listening;
  }

  /**
   * Starts following after `applied` (the head read before the engine was loaded): listens for
   * commits, then catches up once. Rejects when the feed cannot be reached.
   */
  async start(applied: number): Promise<void> {
    this.#applied = applied;
    this.#unlisten = await this.#deps.feed.listen(
      (head, own) => {
        // This process's own commit, told before the write resolves: the use case is about to
        // add what it created to the engine. The feed's notification of the same commit, which
        // comes later, wakes the follower (by then the engine holds those records).
        if (own !== undefined) this.#deps.localWrites.committed(own.created);
        if (own === undefined || own.created.length === 0) this.#wake(head);
      },
      (up, error) => {
        this.#listening = up;
        if (up) {
          this.#checkHead = true;
          this.#wake();
        } else {
          this.#down(error);
        }
      },
    );
    this.#listening = true;
    await this.catchUp();
  }

  /**
   * Resolves once a round that started after this call has applied every change committed
   * before it; rejects when that round could not reach the feed. With `head` (the feed's head,
   * read after everything the caller needs was committed), it resolves at once when every change
   * up to it is in the engine already, without reading the feed.
   */
  catchUp(head?: number): Promise<void> {
    if (head !== undefined && this.#holdsUpTo(head)) return Promise.resolve();
    if (this.#round === undefined) return this.#startRound();
    this.#next ??= this.#round.then(
      () => this.#startRound(),
      () => this.#startRound(),
    );
    return this.#next;
  }

  /**
   * At shutdown: a last round while the feed is reachable, then stops. A snapshot taken next
   * starts at `applied`, which is 0 in a follower the feed's notifications had not woken yet.
   */
  async finish(): Promise<void> {
    if (this.healthy) await this.catchUp().catch(() => undefined);
    await this.stop();
  }

  /** Stops listening; rounds in flight finish. Safe to call twice. */
  async stop(): Promise<void> {
    this.#stopped = true;
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    await unlisten?.();
    await this.#round?.catch(() => undefined);
  }

  /**
   * A commit was announced (`head`: the feed's head then, 0 when unknown). Nothing to read when
   * every change up to it is one the engine holds already (this process's own creations).
   */
  #wake(head = 0): void {
    if (this.#stopped) return;
    if (head > 0 && this.#holdsUpTo(head)) return;
    this.catchUp().catch(() => this.#scheduleRetry());
  }

  /**
   * True when every change up to `head` is in the engine: applied, or held already. Between
   * rounds it moves the cursor past the held changes; during one (which sets the cursor when its
   * read returns) it only looks: the changes up to the cursor are applied either way.
   */
  #holdsUpTo(head: number): boolean {
    if (!this.#healthy) return false;
    if (this.#round === undefined) {
      this.#skipHeld();
      return head <= this.#applied;
    }
    let applied = this.#applied;
    while (applied < head && this.#deps.localWrites.holds(applied + 1)) applied += 1;
    return head <= applied;
  }

  /** Moves past the next changes when the engine holds them already (see `LocalWriteClock`). */
  #skipHeld(): void {
    const { localWrites } = this.#deps;
    const from = this.#applied;
    while (localWrites.holds(this.#applied + 1)) this.#applied += 1;
    if (this.#applied > from) localWrites.settle(this.#applied);
  }

  #scheduleRetry(): void {
    const retryDelay = this.#deps.retryDelay;
    if (retryDelay === undefined || this.#retrying || this.#stopped) return;
    this.#retrying = true;
    const delay = retryDelay(this.#failures);
    void delay.then(() => {
      this.#retrying = false;
      this.#wake();
    });
  }

  #startRound(): Promise<void> {
    this.#next = undefined;
    const round = this.#run().finally(() => {
      if (this.#round === round) this.#round = undefined;
    });
    this.#round = round;
    return round;
  }

  async #run(): Promise<void> {
    try {
      if (this.#checkHead) {
        this.#checkHead = false;
        const head = await this.#deps.feed.head();
        // Behind what this replica applied: the store was restored to an earlier point.
        if (head < this.#applied) {
          this.#applied = 0;
          await this.#resync(`the store's feed is at ${head}, behind this replica`, head);
        }
      }
      for (let raced = 0; raced < MAX_RACED_ROUNDS; raced += 1) {
        const outcome = await this.#page();
        if (outcome === "done") break;
      }
      if (!this.#healthy) {
        this.#healthy = true;
        this.#failures = 0;
        this.#deps.onEvent?.({ kind: "up", applied: this.#applied });
      }
    } catch (error) {
      this.#down(error);
      throw error;
    }
  }

  #down(error: unknown): void {
    this.#failures += 1;
    if (this.#healthy || this.#failures === 1) this.#deps.onEvent?.({ kind: "down", error });
    this.#healthy = false;
  }

  /**
   * Reads and applies pages until the feed has nothing newer. "raced": a local write overtook a
   * fetched change, which is read again.
   */
  async #page(): Promise<"done" | "raced"> {
    const { feed, localWrites } = this.#deps;
    const size = this.#deps.pageSize ?? FOLLOW_PAGE_SIZE;
    for (;;) {
      this.#skipHeld();
      const before = localWrites.now;
      const changes = await feed.changesSince(this.#applied, size);
      if (changes.length === 0) return "done";
      if (!contiguous(changes, this.#applied)) {
        await this.#resync(`the feed skipped from ${this.#applied} to ${changes[0]?.seq}`);
        continue;
      }
      let raced: number | undefined;
      for (const change of changes) {
        // Written here and added to the engine as stored: nothing to apply.
        if (localWrites.holds(change.seq)) continue;
        if (localWrites.since(change.id, before)) {
          raced ??= change.seq;
          continue;
        }
        this.#apply(change.id, change.record);
      }
      localWrites.prune(before);
      const last = (changes[changes.length - 1] as StoreChange).seq;
      this.#applied = raced === undefined ? last : raced - 1;
      localWrites.settle(this.#applied);
      if (raced !== undefined) return "raced";
      if (changes.length < size) return "done";
    }
  }

  #apply(id: string, record: VectorRecord | undefined): void {
    const { engine } = this.#deps;
    if (record === undefined) {
      engine.remove(id);
      return;
    }
    try {
      engine.load(record);
    } catch (error) {
      engine.remove(id);
      this.#deps.skip(record, error);
    }
  }

  /** Reloads the whole store into the engine (the feed lost changes this replica needs). */
  async #resync(reason: string, knownHead?: number): Promise<void> {
    const { feed, store, engine, localWrites } = this.#deps;
    const head = knownHead ?? (await feed.head());
    const before = localWrites.now;
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await store.scan(cursor, FOLLOW_PAGE_SIZE);
      for (const record of page.records) {
        seen.add(record.id);
        if (!localWrites.since(record.id, before)) this.#apply(record.id, record);
      }
      cursor = page.next;
    } while (cursor !== undefined);
    const gone: string[] = [];
    for (const { id } of engine.records()) {
      if (!seen.has(id) && !localWrites.since(id, before)) gone.push(id);
    }
    for (const id of gone) engine.remove(id);
    // The seqs this process noted may be reused (a store restored to an earlier point).
    localWrites.settle();
    this.#applied = Math.max(this.#applied, head);
    this.#deps.onEvent?.({ kind: "resync", reason, records: seen.size });
  }
}

function contiguous(changes: readonly StoreChange[], after: number): boolean {
  let expected = after + 1;
  for (const change of changes) {
    if (change.seq !== expected) return false;
    expected += 1;
  }
  return true;
}
