export type { Clock } from "./clock.js";
export type { TextHasher } from "./text-hasher.js";
export type { Embedder } from "./embedder.js";
export type { EngineSnapshot, EngineSnapshots } from "./engine-snapshots.js";
export type {
  Metadata,
  MetadataValue,
  NewRecord,
  StoredRecord,
  ScanPage,
  VectorRecord,
  VectorSpace,
  VectorStore,
} from "./vector-store.js";
export type { JournalEntry, WriteJournal } from "./write-journal.js";
export type { ChangeFeed, ClusterLocks, HeldLocks, OwnCommit, StoreChange } from "./replication.js";
export type { ApiKeyStore, StoredApiKey } from "./api-key-store.js";
export type {
  ReplicaSnapshot,
  ReplicaSnapshots,
  SavedReplicaSnapshot,
  SnapshotArrayPlacer,
} from "./replica-snapshots.js";
