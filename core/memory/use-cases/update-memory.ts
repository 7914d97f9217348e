import { AgentServicesError } from "../../errors.js";
import type { Metadata } from "../../ports/vector-store.js";
import { updateInputSchema } from "../model/admin-schemas.js";
import { normaliseContent } from "../model/content-key.js";
import { encodeMemoryMetadata } from "../model/memory-metadata.js";
import { duplicateMergeMetadata, withMerge } from "../model/metadata-updates.js";
import { parseInput, parseMemoryId } from "../model/parse-input.js";
import { patchedMemory } from "../model/patched-memory.js";
import {
  idLockKey,
  memoryNotFound,
  rememberLockKey,
  type ServiceContext,
} from "../service-context.js";
import type { Memory } from "../model/types.js";

/** Answer of a `PATCH`: the memory as it is now; `deduplicated` when it merged into another. */
export type UpdateResult = Memory & { readonly deduplicated?: true };

/** Metadata keys only recall changes: a patch never writes them (the write-behind owns them). */
const ACCESS_KEYS = new Set(["access_count", "last_accessed", "last_accessed_ms"]);

/**
 * `PATCH /v1/memories/{id}`: changes `content` (embedded again), `type`, `scope`, `tags`,
 * `project`, `confidence` or `ttl_seconds` (see {@link patchedMemory}). When the change makes it
 * a duplicate of another live memory (same normalised content, type, scope and project), it
 * merges into that one as a `remember` would (tags joined, higher confidence), is deleted, and
 * the answer is the memory it merged into with `deduplicated: true`.
 *
 * @example
 * await updateMemory(context, id, { tags: ["ops"], scope: "permanent" });
 */
export async function updateMemory(
  context: ServiceContext,
  id: string,
  input: unknown,
): Promise<UpdateResult> {
  const memoryId = parseMemoryId(id);
  const patch = parseInput(updateInputSchema, input);
  if (Object.keys(patch).length === 0) {
    throw new AgentServicesError(
      "invalid_input",
      "body: expected at least one of content, type, scope, tags, project, confidence, ttl_seconds",
    );
  }
  const { engine, lock } = context;
  for (;;) {
    const seen = await engine.get(memoryId, context.nowMs());
    if (seen === undefined) throw memoryNotFound(memoryId);
    const content = patch.content ?? seen.content;
    const hash = context.contentHash(content);
    const key = {
      type: patch.type ?? seen.type,
      scope: patch.scope ?? seen.scope,
      project: patch.project ?? seen.project,
    };
    const keyChanged =
      key.type !== seen.type ||
      key.scope !== seen.scope ||
      key.project !== seen.project ||
      normaliseContent(content) !== normaliseContent(seen.content);
    // A changed content key is locked like a remember's (content key first, then ids, the
    // order remember takes them in), so no remember can slip the same memory in meanwhile.
    const keys = keyChanged
      ? [rememberLockKey(key, hash), idLockKey(memoryId)]
      : [idLockKey(memoryId)];
    const result = await lock.runAll(keys, async () => {
      const nowMs = context.nowMs();
      const current = await engine.get(memoryId, nowMs);
      if (current === undefined) throw memoryNotFound(memoryId);
      // Changed by another write since it was read: the locked key may be stale, so start over.
      if (!sameKey(current, seen)) return undefined;
      const next = patchedMemory(current, patch, nowMs, context.options);
      const duplicate = keyChanged
        ? await engine.findDuplicate({ ...next, hash }, nowMs)
        : undefined;
      if (duplicate === undefined || duplicate.id === memoryId) {
        return write(context, current, next, hash);
      }
      return mergeInto(context, duplicate.id, next);
    });
    if (result !== undefined) return result;
  }
}

function sameKey(a: Memory, b: Memory): boolean {
  return (
    a.content === b.content && a.type === b.type && a.scope === b.scope && a.project === b.project
  );
}

async function write(
  context: ServiceContext,
  current: Memory,
  next: Memory,
  hash: string,
): Promise<UpdateResult> {
  const { engine, store } = context;
  const metadata = withoutAccessKeys(encodeMemoryMetadata(next, hash));
  let vector: readonly number[] | undefined;
  if (next.content !== current.content) {
    [vector] = await context.embedder.embedDocuments([next.content]);
    if (vector === undefined) throw new Error("embedder returned no vector for one text");
    await store.upsert([{ id: next.id, vector, document: next.content, metadata }]);
  } else {
    await store.updateMetadata([{ id: next.id, metadata }]);
  }
  // Recall takes no lock: keep the access data the engine holds now.
  const held = engine.peek(next.id) ?? current;
  const result: Memory = {
    ...next,
    access_count: held.access_count,
    last_accessed: held.last_accessed,
    expires_at:
      next.scope === "session" ? later(next.expires_at, held.expires_at) : next.expires_at,
  };
  if (vector === undefined) engine.update(result);
  else engine.add(result, hash, vector);
  return result;
}

async function mergeInto(
  context: ServiceContext,
  targetId: string,
  patched: Memory,
): Promise<UpdateResult> {
  const { engine, store } = context;
  return context.lock.run(idLockKey(targetId), async () => {
    const nowMs = context.nowMs();
    const target = await engine.get(targetId, nowMs);
    if (target === undefined) throw memoryNotFound(targetId);
    await store.updateMetadata([
      { id: targetId, metadata: duplicateMergeMetadata(target, patched, nowMs) },
    ]);
    await store.delete([patched.id]);
    engine.remove(patched.id);
    const merged = withMerge(engine.peek(targetId) ?? target, patched, nowMs);
    engine.update(merged);
    return { ...merged, deduplicated: true };
  });
}

function withoutAccessKeys(metadata: Metadata): Metadata {
  return Object.fromEntries(Object.entries(metadata).filter(([key]) => !ACCESS_KEYS.has(key)));
}

function later(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return a > b ? a : b;
}
