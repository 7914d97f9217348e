import type { Metadata as ChromaMetadata } from "chromadb";
import type { Metadata, StoredRecord } from "../../core/ports/vector-store.js";

/** Keeps the scalar values the port allows (Chroma could also hold arrays, nulls, sparse vectors). */
function toPortMetadata(metadata: ChromaMetadata | null | undefined): Metadata {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      out[key] = value;
  }
  return out;
}

/**
 * Chroma's column-wise get/query result as port records.
 *
 * @example
 * const records = toRecords(await collection.get({ ids, include: ["documents", "metadatas"] }));
 */
export function toRecords(result: {
  ids: string[];
  documents: (string | null)[];
  metadatas: (ChromaMetadata | null)[];
}): StoredRecord[] {
  return result.ids.map((id, i) => ({
    id,
    document: result.documents[i] ?? "",
    metadata: toPortMetadata(result.metadatas[i]),
  }));
}
