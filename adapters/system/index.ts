/**
 * System adapters: what the core reads from the running machine.
 *
 * @example
 * import { SystemClock } from "agent-services/adapters/system";
 * const clock = new SystemClock();
 */
export { SystemClock } from "./system-clock.js";
export { NodeTextHasher } from "./node-text-hasher.js";
export { FileEngineSnapshots } from "./file-engine-snapshots.js";
export type { FileEngineSnapshotsOptions } from "./file-engine-snapshots.js";
export {
  FileReplicaSnapshots,
  REPLICA_SNAPSHOT_FILE,
  type FileReplicaSnapshotsOptions,
} from "./file-replica-snapshots.js";
export { FileApiKeyStore } from "./file-api-key-store.js";
export { FileWriteJournal } from "./file-write-journal.js";
export type { FileWriteJournalOptions } from "./file-write-journal.js";
export type { JournalDamage, SegmentMark } from "./file-write-journal.js";
export type { JournalFile, JournalFiles } from "./journal-files.js";
