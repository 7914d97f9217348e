import { setTimeout as delay } from "node:timers/promises";
import { join } from "node:path";
import { JournaledVectorStore, type JournalEvent, type VectorStore } from "../../../core/index.js";
import { FileWriteJournal } from "../../../adapters/system/index.js";
import type { Logger } from "../../common/logger.js";

/** The write journal's directory inside the embedded store's data directory. */
export const JOURNAL_DIRECTORY = "journal";
/** How long journaled writes gather before one Chroma write (unless a full batch waits). */
const BATCH_DELAY_MS = 500;
/** The backlog is held to this much of Chroma's measured drain time. */
const MAX_BACKLOG_MS = 10_000;
/** A writer waits this long for room in the backlog before it is refused (503, Retry-After). */
export const ROOM_WAIT_MS = 3_000;
/**
 * At shutdown the store gets this long to take the backlog; the rest stays in the journal and
 * is replayed at the next start (so SIGTERM exits in time whatever the backlog).
 */
export const STORE_DRAIN_DEADLINE_MS = 5_000;
/** On a full disk, the journal tries an append again this often (others are refused up front). */
const FULL_DISK_PROBE_MS = 1_000;

/**
 * The embedded store as the service owns it: writes are acknowledged once they are in the write
 * journal of the data directory (one `fdatasync` shared by concurrent writers) and reach Chroma
 * behind the answer, in large batches; what a crash leaves in the journal is written to Chroma
 * before the store is used again (see docs/decisions/0005-write-journal.md).
 *
 * @example
 * const store = journaledStore(new ChromaVectorStore({ url }), dataDir, logger);
 */
export function journaledStore(
  inner: VectorStore,
  dataDirectory: string,
  logger: Logger,
): JournaledVectorStore {
  const journal = new FileWriteJournal(join(dataDirectory, JOURNAL_DIRECTORY), {
    warn: (message) => logger.warn(message),
    onDamage: (damage) =>
      damage.kind === "lost"
        ? logger.error(damage.message, {
            code: "journal_damaged",
            lost_entries: damage.lostEntries ?? "unknown",
          })
        : logger.warn(damage.message, { code: "journal_torn_end" }),
  });
  const after = (ms: number) => () => delay(ms, undefined, { ref: false });
  return new JournaledVectorStore(inner, journal, {
    // Refused writes last at most two seconds after the store is back.
    retryDelay: (attempt) => delay(Math.min(50 * 2 ** attempt, 2_000), undefined, { ref: false }),
    // Chroma commits each call with several fsyncs on the journal's disk: fewer, larger calls.
    batchDelay: after(BATCH_DELAY_MS),
    maxBacklogMs: MAX_BACKLOG_MS,
    now: () => performance.now(),
    roomWait: after(ROOM_WAIT_MS),
    drainDeadline: after(STORE_DRAIN_DEADLINE_MS),
    fullDiskProbe: after(FULL_DISK_PROBE_MS),
    onEvent: (event) => logJournalEvent(event, logger),
  });
}

function logJournalEvent(event: JournalEvent, logger: Logger): void {
  switch (event.kind) {
    case "replayed":
      logger.info("write journal replayed into the store", {
        entries: event.entries,
        ids: event.ids,
      });
      return;
    case "store_down":
      logger.error(
        event.answers
          ? "vector store refuses journaled writes; they stay in the journal and are retried, new writes are refused until they land"
          : "vector store failed; journaled writes wait and are retried, new writes are refused until it answers",
        { code: "store_busy", pending_ids: event.pendingIds, error: String(event.error) },
      );
      return;
    case "store_up":
      logger.info("vector store takes writes again; the write journal drains", {
        pending_ids: event.pendingIds,
        failed_attempts: event.failedAttempts,
      });
      return;
    case "journal_full":
      logger.error("the write journal's disk is full; writes are refused until space is freed", {
        code: "insufficient_storage",
        error: String(event.error),
      });
      return;
    case "journal_writable":
      logger.info("the write journal takes writes again");
      return;
    case "backlog_kept":
      logger.warn(
        "the store did not take the whole backlog (drain deadline passed, or stopped during the start's replay); the write journal keeps it for the next start",
        {
          pending_ids: event.pendingIds,
          entries: event.entries,
        },
      );
      return;
  }
}
