import type { VectorFilter } from "../ports/vector-store.js";
import type { MemoryScope, MemoryType } from "./types.js";

/**
 * Memories still live at `nowMs`: `expires_at_ms > now` (never-expiring ones hold a far-future
 * number, so one comparison covers every scope).
 *
 * @example
 * await store.count(liveFilter(clock.now().getTime()));
 */
export function liveFilter(nowMs: number): VectorFilter {
  return { field: "expires_at_ms", op: "gt", value: nowMs };
}

/**
 * Memories expired at `nowMs` (the complement of {@link liveFilter}): what the sweep deletes.
 *
 * @example
 * await store.find(expiredFilter(clock.now().getTime()), 1000);
 */
export function expiredFilter(nowMs: number): VectorFilter {
  return { field: "expires_at_ms", op: "lte", value: nowMs };
}

/**
 * The project clause of recall and search: with a project, that project's memories plus
 * `permanent` ones (global rules apply everywhere); `undefined` for `""` (no project filter).
 * Liveness is left out on purpose: recall and search check it in process (see
 * {@link candidateFilter}).
 *
 * @example
 * await store.query({ vector, topK: 58, filter: projectFilter("billing") });
 */
export function projectFilter(project: string): VectorFilter | undefined {
  if (project === "") return undefined;
  return {
    or: [
      { field: "project", op: "eq", value: project },
      { field: "scope", op: "eq", value: "permanent" },
    ],
  };
}

/**
 * Recall and search candidates: live memories, and with a project only that project's memories
 * plus `permanent` ones. `""` means no project filter. Only the fallback query uses it: the
 * expiry predicate makes Chroma evaluate the filter over every record instead of walking its
 * index (6-8x slower), so the first query leaves it out.
 *
 * @example
 * await store.query({ vector, topK: 50, filter: candidateFilter(nowMs, "billing") });
 */
export function candidateFilter(nowMs: number, project: string): VectorFilter {
  const projects = projectFilter(project);
  return projects === undefined ? liveFilter(nowMs) : { and: [liveFilter(nowMs), projects] };
}

/** What makes two memories duplicates, besides their normalised content. */
export interface DuplicateKey {
  readonly hash: string;
  readonly type: MemoryType;
  readonly scope: MemoryScope;
  readonly project: string;
}

/**
 * Live memories with the same content hash, type, scope and project: the duplicate candidates
 * (the caller still compares normalised contents, so a hash collision cannot merge memories).
 *
 * @example
 * await store.find(duplicateFilter(nowMs, { hash, type: "fact", scope: "session", project: "" }), 10);
 */
export function duplicateFilter(nowMs: number, key: DuplicateKey): VectorFilter {
  return {
    and: [
      { field: "content_hash", op: "eq", value: key.hash },
      { field: "type", op: "eq", value: key.type },
      { field: "scope", op: "eq", value: key.scope },
      { field: "project", op: "eq", value: key.project },
      liveFilter(nowMs),
    ],
  };
}
