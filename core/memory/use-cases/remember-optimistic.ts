/**
 * A replica's remember without the cluster lock's round trip (issue 21): a body whose content
 * key has no live duplicate in this replica's engine is inserted through the store's
 * `insertNew`, which stores it only when nobody else can have written its like meanwhile; every
 * other body, and every body the store left out, is remembered under the locks as before.
 */
import type { NewRecord } from "../../ports/vector-store.js";
import type { ParsedRememberInput } from "../model/schemas.js";
import { newMemory } from "../model/new-memory.js";
import type { Memory, RememberBatchItem } from "../model/types.js";
import type { OptimisticInserts, ServiceContext } from "../service-context.js";
import { newRecords } from "./new-records.js";

/**
 * Remembers `planned` (whose content lock keys are `keys`), taking the lock only for what needs
 * it: `locked(indexes)` remembers those bodies under the locks and answers for them in order.
 * Within this process the bodies' content keys take turns (`optimistic.local`), so a body and a
 * later one of the same content never both look before either is stored.
 *
 * Why this is exact across replicas: the engine holds every change up to `seen`; a body goes
 * through `insertNew` only when the engine has no live duplicate and no earlier body of the
 * call has its key; `insertNew` leaves it out when a cluster lock holds its key (a locked
 * remember, import or PATCH of that content in progress) or when a record changed after `seen`
 * carries its content key, read after its key was locked. What it leaves out takes the lock,
 * catches up and merges, exactly like a remember that never tried.
 *
 * @example
 * await rememberOptimistically(context, optimistic, planned, keys, (rest) => lockedPath(rest));
 */
export async function rememberOptimistically(
  context: ServiceContext,
  optimistic: OptimisticInserts,
  planned: readonly { readonly body: ParsedRememberInput; readonly hash: string }[],
  keys: readonly string[],
  locked: (indexes: readonly number[]) => Promise<RememberBatchItem[]>,
): Promise<RememberBatchItem[]> {
  return optimistic.local.runAll([...new Set(keys)], async () => {
    const seen = optimistic.seen();
    const nowMs = context.nowMs();
    const fresh: { index: number; memory: Memory; hash: string }[] = [];
    const rest: number[] = [];
    const taken = new Set<string>();
    for (const [index, { body, hash }] of planned.entries()) {
      const key = keys[index] as string;
      const { content, type, scope, project } = body;
      const lookup = context.engine.findDuplicate({ hash, content, type, scope, project }, nowMs);
      const found = lookup instanceof Promise ? await lookup : lookup;
      if (found !== undefined || taken.has(key)) {
        rest.push(index);
        continue;
      }
      taken.add(key);
      fresh.push({ index, memory: newMemory(body, context.newId(), nowMs, context.options), hash });
    }
    const results: RememberBatchItem[] = new Array<RememberBatchItem>(planned.length);
    if (fresh.length > 0) {
      const records = await newRecords(context, fresh);
      const items: NewRecord[] = fresh.map(({ index, memory, hash }, i) => ({
        record: records[i] as NewRecord["record"],
        lockKey: keys[index] as string,
        match: {
          content_hash: hash,
          type: memory.type,
          scope: memory.scope,
          project: memory.project,
        },
        seen,
      }));
      const left = await optimistic.insertNew(items);
      for (const [i, { index, memory, hash }] of fresh.entries()) {
        if (left.has(memory.id)) {
          rest.push(index);
          continue;
        }
        context.engine.add(memory, hash, (records[i] as NewRecord["record"]).vector);
        results[index] = { id: memory.id, stored: true, deduplicated: false };
      }
    }
    if (rest.length > 0) {
      rest.sort((a, b) => a - b);
      const answers = await locked(rest);
      rest.forEach((index, i) => {
        results[index] = answers[i] as RememberBatchItem;
      });
    }
    return results;
  });
}
