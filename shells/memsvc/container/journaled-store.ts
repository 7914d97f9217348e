import { setTimeout as delay } from "node:timers/promises";
import { join } from "node:path";
import { JournaledVectorStore, type JournalEvent, type VectorStore } from "../../../core/index.js";
import { FileWriteJournal } from "../../../adapters/system/index.js";
import type { Logger } from "../../common/logger.js";

/** The write journal's directory inside the embedded store's data directory. */
export const JOURNAL_DIRECTORY = "journal";
/** How long journaled writes gather before one Chroma write (unless a full batch waits). */
const BATCH_DELAY_MS = 500;

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
  });
  return new JournaledVectorStore(inner, journal, {
    // Refused writes last at most a second after the store is back.
    retryDelay: (attempt) => delay(Math.min(50 * 2 ** attempt, 1_000), undefined, { ref: false }),
    // Chroma commits each call with several fsyncs on the journal's disk: fewer, larger calls.
    batchDelay: () => delay(BATCH_DELAY_MS, undefined, { ref: false }),
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
      logger.error("vector store failed; writes are refused until it answers", {
        pending_ids: event.pendingIds,
        error: String(event.error),
      });
      return;
    case "store_up":
      logger.info("vector store answers again; the write journal drains", {
        pending_ids: event.pendingIds,
        failed_attempts: event.failedAttempts,
      });
      return;
    case "dropped":
      logger.error("vector store refused a journaled write; it is given up", {
        ids: event.ids.slice(0, 20).join(","),
        count: event.ids.length,
        error: String(event.error),
      });
      return;
  }
}
