import type { Metadata, MetadataValue, StoredRecord } from "../../ports/vector-store.js";
import { NEVER_EXPIRES_MS } from "./expiry.js";
import { MEMORY_SCOPES, MEMORY_TYPES } from "./types.js";
import type { Memory, MemoryScope, MemoryType } from "./types.js";

/**
 * Version of the metadata layout below, stored with every record so a later layout can migrate
 * old records instead of misreading them.
 */
export const MEMORY_METADATA_VERSION = 1;

/**
 * How a Memory is laid out in a vector store record. The content is the record's document; the
 * rest is flat metadata, because Chroma accepts only strings, numbers and booleans:
 *
 * | key | value |
 * |---|---|
 * | `memory_v` | layout version (1) |
 * | `type`, `scope`, `project` | strings, as on the wire (`project` is `""` when none) |
 * | `tags` | JSON array of strings (a delimited string with JSON's escaping: any tag round-trips) |
 * | `confidence`, `access_count` | numbers |
 * | `created_at`, `updated_at`, `last_accessed` | ISO 8601 strings, for people reading the store |
 * | `created_at_ms`, `updated_at_ms`, `last_accessed_ms` | epoch ms: what filters compare and what is read back |
 * | `expires_at` | ISO 8601 string; absent for memories that never expire |
 * | `expires_at_ms` | epoch ms; {@link NEVER_EXPIRES_MS} for memories that never expire |
 * | `content_hash` | SHA-256 of the normalised content, for duplicate lookup |
 *
 * @example
 * const metadata = encodeMemoryMetadata(memory, await contentHash(memory.content));
 * await store.upsert([{ id: memory.id, vector, document: memory.content, metadata }]);
 */
export function encodeMemoryMetadata(memory: Memory, hash: string): Metadata {
  const metadata: Record<string, MetadataValue> = {
    memory_v: MEMORY_METADATA_VERSION,
    type: memory.type,
    scope: memory.scope,
    project: memory.project,
    tags: encodeTags(memory.tags),
    confidence: memory.confidence,
    access_count: memory.access_count,
  };
  // Written in place, no object to spread per instant (a batch of 1,000 remembers encodes
  // 4,000 instants).
  writeInstant(metadata, "created_at", memory.created_at);
  writeInstant(metadata, "updated_at", memory.updated_at);
  writeInstant(metadata, "last_accessed", memory.last_accessed);
  writeExpiry(metadata, memory.expires_at);
  metadata["content_hash"] = hash;
  return metadata;
}

/**
 * The metadata keys of an instant: `<name>` as ISO 8601 and `<name>_ms` as epoch ms.
 *
 * @example
 * encodeInstant("updated_at", "2026-11-21T10:00:00.000Z");
 * // { updated_at: "2026-11-21T10:00:00.000Z", updated_at_ms: 1795255200000 }
 */
export function encodeInstant(name: string, iso: string): Record<string, MetadataValue> {
  const keys: Record<string, MetadataValue> = {};
  writeInstant(keys, name, iso);
  return keys;
}

/** {@link encodeInstant}'s keys written into `target`. */
function writeInstant(target: Record<string, MetadataValue>, name: string, iso: string): void {
  target[name] = iso;
  target[`${name}_ms`] = Date.parse(iso);
}

/**
 * The expiry keys: `expires_at_ms` always (the far-future sentinel when `null`), `expires_at`
 * only for memories that expire.
 *
 * @example
 * encodeExpiry(null); // { expires_at_ms: 8640000000000000 }
 */
export function encodeExpiry(expiresAt: string | null): Record<string, MetadataValue> {
  const keys: Record<string, MetadataValue> = {};
  writeExpiry(keys, expiresAt);
  return keys;
}

/** {@link encodeExpiry}'s keys written into `target`. */
function writeExpiry(target: Record<string, MetadataValue>, expiresAt: string | null): void {
  if (expiresAt === null) target["expires_at_ms"] = NEVER_EXPIRES_MS;
  else writeInstant(target, "expires_at", expiresAt);
}

/**
 * Tags as one metadata string: a JSON array, so separators and quotes inside tags are escaped.
 *
 * @example
 * encodeTags(["a,b", "c"]); // '["a,b","c"]'
 */
export function encodeTags(tags: readonly string[]): string {
  return JSON.stringify(tags);
}

/**
 * Reads a Memory back from a store record. A record that does not follow the layout is a broken
 * invariant (written by something else, or a bug), so this throws a plain Error naming the record
 * and the key.
 *
 * @example
 * const [record] = await store.get([id]);
 * if (record) return decodeMemory(record);
 */
export function decodeMemory(record: StoredRecord): Memory {
  const m = record.metadata;
  const fail = (key: string): never => {
    throw new Error(
      `memory record ${record.id}: metadata key ${key} is missing or invalid (${JSON.stringify(m[key])})`,
    );
  };
  const string = (key: string): string => {
    const value = m[key];
    return typeof value === "string" ? value : fail(key);
  };
  const number = (key: string): number => {
    const value = m[key];
    return typeof value === "number" && Number.isFinite(value) ? value : fail(key);
  };
  const instant = (key: string): string => {
    const ms = number(`${key}_ms`);
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? fail(`${key}_ms`) : date.toISOString();
  };
  const type = string("type");
  const scope = string("scope");
  if (!(MEMORY_TYPES as readonly string[]).includes(type)) fail("type");
  if (!(MEMORY_SCOPES as readonly string[]).includes(scope)) fail("scope");
  const expiresAtMs = number("expires_at_ms");
  return {
    id: record.id,
    content: record.document,
    type: type as MemoryType,
    scope: scope as MemoryScope,
    tags: decodeTags(string("tags")) ?? fail("tags"),
    project: string("project"),
    confidence: number("confidence"),
    created_at: instant("created_at"),
    updated_at: instant("updated_at"),
    last_accessed: instant("last_accessed"),
    access_count: number("access_count"),
    expires_at: expiresAtMs >= NEVER_EXPIRES_MS ? null : instant("expires_at"),
  };
}

function decodeTags(encoded: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(encoded);
    if (Array.isArray(parsed) && parsed.every((tag) => typeof tag === "string")) {
      return parsed as string[];
    }
  } catch {
    // Falls through to the caller's error naming the key.
  }
  return undefined;
}
