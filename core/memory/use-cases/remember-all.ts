/**
 * The part `remember` and `rememberBatch` share: stores validated bodies, each merged into the
 * live duplicate it has or inserted as a new memory, under the locks of their content keys.
 */
import { AgentServicesError } from "../../errors.js";
import type { VectorRecord } from "../../ports/vector-store.js";
import { withMerge } from "../model/metadata-updates.js";
import { newMemory } from "../model/new-memory.js";
import type { ParsedRememberInput } from "../model/schemas.js";
import { idLockKey, rememberLockKey, type ServiceContext } from "../service-context.js";
import type { Memory, RememberBatchItem } from "../model/types.js";
import { applyMerges } from "./apply-merges.js";
import { newRecords } from "./new-records.js";
import { rememberOptimistically } from "./remember-optimistic.js";

/** One remember of a call, after validation, with its content hash. */
export interface PlannedRemember {
  readonly body: ParsedRememberInput;
  readonly hash: string;
}

/**
 * Most bodies a call remembers without the lock first (replica mode): a larger batch takes the
 * lock at once. Its two round trips are little beside 1,000 inserts, while the store's check of
 * what others wrote meanwhile grows with the bodies times the changes since (measured with a
 * first version of that check: 1,000 bodies cost PostgreSQL ~0.2 s more per call).
 */
const OPTIMISTIC_MAX_BODIES = 64;

/**
 * Refuses `ttl_seconds` on a body whose scope is not `"ttl"`; `prefix` locates the body in its
 * request (`"memories[2]."` in a batch).
 *
 * @example
 * checkTtl(body, ""); // throws invalid_input "ttl_seconds: only applies to scope "ttl", …"
 */
export function checkTtl(body: ParsedRememberInput, prefix: string): void {
  if (body.ttl_seconds !== undefined && body.scope !== "ttl") {
    throw new AgentServicesError(
      "invalid_input",
      `${prefix}ttl_seconds: only applies to scope "ttl", got scope "${body.scope}"`,
    );
  }
}

/**
 * Remembers validated bodies in order. Each one merges into the live duplicate it has (in the
 * engine, or an earlier body of the same call); the others are embedded in one call and stored
 * in one store write. The content keys of all bodies, then the ids merged into, are locked for
 * the whole call. On a replica whose store has `insertNew`, a call of up to 64 bodies first
 * stores its new content without the cluster lock (`rememberOptimistically`) and locks only for
 * the rest.
 *
 * @example
 * const [item] = await rememberAll(context, [{ body, hash: await contentHash(body.content) }]);
 */
export async function rememberAll(
  context: ServiceContext,
  planned: readonly PlannedRemember[],
): Promise<RememberBatchItem[]> {
  const keys = planned.map(({ body, hash }) => rememberLockKey(body, hash));
  const { optimistic } = context;
  if (optimistic === undefined || planned.length > OPTIMISTIC_MAX_BODIES) {
    return rememberLocked(context, planned, keys);
  }
  return rememberOptimistically(context, optimistic, planned, keys, (rest) =>
    rememberLocked(
      context,
      rest.map((i) => planned[i] as PlannedRemember),
      rest.map((i) => keys[i] as string),
    ),
  );
}

/** {@link rememberAll} under the cluster (or process) locks of the bodies' content keys. */
async function rememberLocked(
  context: ServiceContext,
  planned: readonly PlannedRemember[],
  keys: readonly string[],
): Promise<RememberBatchItem[]> {
  const { engine, lock } = context;
  return lock.runAll(keys, async () => {
    const nowMs = context.nowMs();
    const targets = new Map<string, Memory>();
    // One lookup after another, awaited only when the read model answers with a promise: the
    // engine answers at once, and a batch of 1,000 then makes no promise or closure per memory.
    const duplicateOf: (string | undefined)[] = [];
    for (const { body, hash } of planned) {
      const { content, type, scope, project } = body;
      const lookup = engine.findDuplicate({ hash, content, type, scope, project }, nowMs);
      const found = lookup instanceof Promise ? await lookup : lookup;
      if (found !== undefined) targets.set(found.id, found);
      duplicateOf.push(found?.id);
    }
    return lock.runAll([...targets.keys()].map(idLockKey), async () => {
      const now = context.nowMs();
      const merged = new Map<string, Memory>();
      const results: RememberBatchItem[] = [];
      const fresh = new Map<string, { memory: Memory; hash: string }>();
      const firstOfKey = new Map<string, string>();
      for (const [i, { body, hash }] of planned.entries()) {
        const target = duplicateOf[i];
        // Deleted or swept while this call waited for its lock: store it anew.
        const current =
          target === undefined
            ? undefined
            : (merged.get(target) ?? (await engine.get(target, now)));
        if (current !== undefined) {
          merged.set(current.id, withMerge(current, body, now));
          results.push({ id: current.id, stored: true, deduplicated: true });
          continue;
        }
        const key = keys[i] as string;
        const earlier = firstOfKey.get(key);
        const entry = earlier === undefined ? undefined : fresh.get(earlier);
        if (entry !== undefined) {
          entry.memory = withMerge(entry.memory, body, Date.parse(entry.memory.updated_at));
          results.push({ id: entry.memory.id, stored: true, deduplicated: true });
          continue;
        }
        const memory = newMemory(body, context.newId(), now, context.options);
        fresh.set(memory.id, { memory, hash });
        firstOfKey.set(key, memory.id);
        results.push({ id: memory.id, stored: true, deduplicated: false });
      }
      await insert(context, [...fresh.values()]);
      if (merged.size > 0) await applyMerges(context, [...merged.values()], now);
      return results;
    });
  });
}

/** Embeds new memories in one call, stores them in one write, then adds them to the engine. */
async function insert(
  context: ServiceContext,
  items: readonly { memory: Memory; hash: string }[],
): Promise<void> {
  if (items.length === 0) return;
  const records = await newRecords(context, items);
  await context.store.upsert(records);
  for (const [i, { memory, hash }] of items.entries()) {
    context.engine.add(memory, hash, (records[i] as VectorRecord).vector);
  }
}
