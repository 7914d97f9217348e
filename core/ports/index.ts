export type { Clock } from "./clock.js";
export type { Embedder } from "./embedder.js";
export type {
  Metadata,
  MetadataValue,
  StoredRecord,
  VectorFilter,
  VectorMatch,
  VectorQuery,
  VectorRecord,
  VectorSpace,
  VectorStore,
} from "./vector-store.js";
