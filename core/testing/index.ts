/**
 * In-memory fakes of the ports, for unit tests and for library users who want no servers.
 *
 * @example
 * import { InMemoryVectorStore, FakeEmbedder, ManualClock } from "agent-services/testing";
 */
export { FakeEmbedder } from "./fake-embedder.js";
export type { FakeEmbedderOptions } from "./fake-embedder.js";
export { InMemoryEngineSnapshots } from "./in-memory-engine-snapshots.js";
export { InMemoryVectorStore } from "./in-memory-vector-store.js";
export { InMemoryWriteJournal } from "./in-memory-write-journal.js";
export { ManualClock } from "./manual-clock.js";
export { InMemorySharedStore } from "./in-memory-replication.js";
export type { InMemoryReplicaPorts } from "./in-memory-replication.js";
export { InMemoryApiKeyStore } from "./in-memory-api-key-store.js";
