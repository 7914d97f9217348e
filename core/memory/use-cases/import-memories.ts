import { isAgentServicesError } from "../../errors.js";
import { importLineSchema, type ParsedImportLine } from "../model/admin-schemas.js";
import { expiresAtMs } from "../model/expiry.js";
import { encodeMemoryMetadata } from "../model/memory-metadata.js";
import { nestsDeeperThan, TOO_DEEP } from "../model/json-nesting.js";
import { uniqueTags, withMerge } from "../model/metadata-updates.js";
import type { NdjsonLine } from "../model/ndjson-lines.js";
import { parseInput } from "../model/parse-input.js";
import { expiryBeyondLimit, futureTimestamp } from "../model/import-timestamps.js";
import { idLockKey, rememberLockKey, type ServiceContext } from "../service-context.js";
import type { Memory } from "../model/types.js";
import { applyMerges } from "./apply-merges.js";

/** Answer of an import. `rejected` lists at most {@link MAX_REJECTED_LISTED} lines. */
export interface ImportResult {
  readonly imported: number;
  readonly deduplicated: number;
  readonly rejected: readonly { readonly line: number; readonly error: string }[];
  /** The store was busy after earlier batches: lines through `storedThroughLine` handled, no later. */
  readonly stopped?: { readonly reason: "store_busy"; readonly storedThroughLine: number };
}

/** Lines validated, embedded and stored together. */
export const IMPORT_BATCH = 200;
/** Most rejected lines an import answer lists (the rest are only counted as not imported). */
export const MAX_REJECTED_LISTED = 1000;

interface Planned {
  readonly line: number;
  readonly memory: Memory;
  /** Usable only when it comes from the running embedder with its dimension: normalised. */
  readonly vector: number[] | undefined;
}

/**
 * `POST /v1/import`: stores the memories of NDJSON lines (as `GET /v1/export` writes them),
 * keeping their ids, timestamps and access data. Lines are handled in batches of
 * {@link IMPORT_BATCH}: one embedder call for the lines without a usable vector (absent, from
 * another embedder, of another dimension), one store write, and what a batch stored is durable
 * even if a later batch fails. A line whose id is already stored (or taken by an earlier line),
 * or whose content duplicates a live memory (or an earlier line) as `remember` judges it, is
 * merged like a `remember` (`deduplicated`): tags joined, the higher confidence kept, the stored
 * content kept; a line that adds nothing changes nothing. A line that cannot be read, fails
 * validation, has already expired, has a timestamp in the future (beyond
 * `MAX_CLOCK_SKEW_MS`) or an expiry later than its scope allows is rejected with its line
 * number and the reason; the other lines are still imported. A store too busy to take a batch
 * (`store_busy`, the write journal's backlog full) after earlier ones stops it there (`stopped`).
 *
 * @example
 * await importMemories(context, ndjsonLines(body, 1_048_576)); // { imported: 2, deduplicated: 0, rejected: [] }
 */
export async function importMemories(
  context: ServiceContext,
  lines: AsyncIterable<NdjsonLine> | Iterable<NdjsonLine>,
): Promise<ImportResult> {
  const rejected: { line: number; error: string }[] = [];
  const counts = { imported: 0, deduplicated: 0 };
  const reject = (line: number, error: string) => {
    if (rejected.length < MAX_REJECTED_LISTED) rejected.push({ line, error });
  };
  let batch: Planned[] = [];
  let stored = false;
  /** Stores the batch, or answers where the import stops: the store refused it as busy. */
  const flush = async (): Promise<ImportResult | undefined> => {
    try {
      await storeBatch(context, batch, counts);
    } catch (error) {
      // Nothing stored yet: the refusal itself (503, Retry-After) says all.
      if (!stored || !isAgentServicesError(error, "store_busy")) throw error;
      const through = (batch[0]?.line ?? 1) - 1;
      const stopped = { reason: "store_busy", storedThroughLine: through } as const;
      return { ...counts, rejected: rejected.filter((r) => r.line <= through), stopped };
    }
    stored = true;
    batch = [];
    return undefined;
  };
  for await (const item of lines) {
    if ("error" in item) {
      reject(item.line, item.error);
      continue;
    }
    const planned = plan(context, item.text);
    if (typeof planned === "string") {
      reject(item.line, planned);
      continue;
    }
    batch.push({ ...planned, line: item.line });
    const stop = batch.length >= IMPORT_BATCH ? await flush() : undefined;
    if (stop !== undefined) return stop;
  }
  return (await flush()) ?? { ...counts, rejected };
}

/** The memory of one line, or why it is rejected. */
function plan(context: ServiceContext, text: string): Omit<Planned, "line"> | string {
  if (nestsDeeperThan(text)) return TOO_DEEP;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `invalid JSON: ${(error as Error).message}`;
  }
  let body: ParsedImportLine;
  try {
    body = parseInput(importLineSchema, value);
  } catch (error) {
    if (isAgentServicesError(error, "invalid_input")) return error.message;
    throw error;
  }
  const nowMs = context.nowMs();
  const future = futureTimestamp(body, nowMs);
  if (future !== undefined) return future;
  const createdMs = body.created_at === undefined ? nowMs : Date.parse(body.created_at);
  const lastAccessedMs =
    body.last_accessed === undefined ? createdMs : Date.parse(body.last_accessed);
  const computed = expiresAtMs(
    { scope: body.scope, createdAtMs: createdMs, lastAccessedMs },
    context.options,
  );
  const expiresMs =
    computed === null ? null : body.expires_at != null ? Date.parse(body.expires_at) : computed;
  if (expiresMs !== null && expiresMs <= nowMs) {
    return `expires_at: the memory expired at ${new Date(expiresMs).toISOString()}`;
  }
  const tooLate = expiryBeyondLimit(
    { scope: body.scope, expiresMs, createdMs, lastAccessedMs },
    context.options,
  );
  if (tooLate !== undefined) return tooLate;
  const iso = (ms: number) => new Date(ms).toISOString();
  const memory: Memory = {
    id: body.id?.toLowerCase() ?? context.newId(),
    content: body.content,
    type: body.type,
    scope: body.scope,
    tags: uniqueTags(body.tags),
    project: body.project,
    confidence: body.confidence,
    created_at: iso(createdMs),
    updated_at: body.updated_at === undefined ? iso(createdMs) : iso(Date.parse(body.updated_at)),
    last_accessed: iso(lastAccessedMs),
    access_count: body.access_count,
    expires_at: expiresMs === null ? null : iso(expiresMs),
  };
  const usable =
    body.vector !== undefined &&
    body.embedder === context.embedder.id &&
    body.vector.length === context.embedder.dimensions;
  return { memory, vector: usable ? normalised(body.vector ?? []) : undefined };
}

async function storeBatch(
  context: ServiceContext,
  lines: readonly Planned[],
  counts: { imported: number; deduplicated: number },
): Promise<void> {
  if (lines.length === 0) return;
  const batch = await withOwnIds(context, lines);
  const { engine, lock } = context;
  const hashes = batch.map(({ memory }) => context.contentHash(memory.content));
  const keys = batch.map(({ memory }, i) => rememberLockKey(memory, hashes[i] as string));
  const idKeys = batch.map(({ memory }) => idLockKey(memory.id));
  const held = new Set([...keys, ...idKeys]);
  await lock.runAll([...held], async () => {
    const nowMs = context.nowMs();
    const fresh = new Map<string, Planned & { hash: string; memory: Memory }>();
    const firstOfKey = new Map<string, string>();
    const targets = new Map<string, Memory>();
    for (const [i, planned] of batch.entries()) {
      const { memory } = planned;
      const key = keys[i] as string;
      const hash = hashes[i] as string;
      // The id is taken (stored, or by an earlier line): merged as remember merges a duplicate;
      // the content with that id stays.
      const earlierLine = fresh.get(memory.id);
      if (earlierLine !== undefined) {
        const { updated_at } = earlierLine.memory;
        earlierLine.memory =
          mergeInto(earlierLine.memory, memory, Date.parse(updated_at)) ?? earlierLine.memory;
        counts.deduplicated += 1;
        continue;
      }
      const stored = targets.get(memory.id) ?? engine.peek(memory.id);
      if (stored !== undefined) {
        const merged = mergeInto(stored, memory, nowMs);
        if (merged !== undefined) targets.set(memory.id, merged);
        counts.deduplicated += 1;
        continue;
      }
      const earlier = fresh.get(firstOfKey.get(key) ?? "");
      if (earlier !== undefined) {
        earlier.memory = withMerge(earlier.memory, memory, Date.parse(earlier.memory.updated_at));
        counts.deduplicated += 1;
        continue;
      }
      const duplicate = await engine.findDuplicate({ ...memory, hash }, nowMs);
      if (duplicate !== undefined) {
        const merged = mergeInto(targets.get(duplicate.id) ?? duplicate, memory, nowMs);
        if (merged !== undefined) targets.set(duplicate.id, merged);
        counts.deduplicated += 1;
        continue;
      }
      fresh.set(memory.id, { ...planned, hash });
      firstOfKey.set(key, memory.id);
    }
    await insert(context, [...fresh.values()]);
    counts.imported += fresh.size;
    await merge(context, [...targets.values()], held);
  });
}

/**
 * The lines, those whose id another tenant's memory holds given a new one (issue 23): that memory
 * is neither overwritten nor revealed, so one tenant's export can be imported into another.
 */
async function withOwnIds(context: ServiceContext, lines: readonly Planned[]) {
  const taken = await context.idsTakenElsewhere?.(lines.map(({ memory }) => memory.id));
  if (taken === undefined || taken.size === 0) return lines;
  return lines.map((line) =>
    taken.has(line.memory.id) ? { ...line, memory: { ...line.memory, id: context.newId() } } : line,
  );
}

/**
 * `current` after a line merged into it (tags joined, the higher confidence), or undefined when
 * the line adds nothing: importing the same export twice changes nothing, `updated_at` included.
 */
function mergeInto(current: Memory, line: Memory, nowMs: number): Memory | undefined {
  // A Set: a line and a memory of 100,000 tags each (one 1 MB line) made `includes` quadratic.
  const held = new Set(current.tags);
  const adds = line.confidence > current.confidence || line.tags.some((tag) => !held.has(tag));
  return adds ? withMerge(current, line, nowMs) : undefined;
}

async function insert(
  context: ServiceContext,
  items: readonly (Planned & { readonly hash: string })[],
): Promise<void> {
  if (items.length === 0) return;
  const missing = items.filter((item) => item.vector === undefined);
  const embedded = await context.embedder.embedDocuments(missing.map((m) => m.memory.content));
  const vectorOf = new Map(missing.map((item, i) => [item.memory.id, embedded[i]]));
  const records = items.map(({ memory, hash, vector }) => {
    const chosen = vector ?? vectorOf.get(memory.id);
    if (chosen === undefined) throw new Error("embedder returned fewer vectors than texts");
    return {
      id: memory.id,
      vector: chosen,
      document: memory.content,
      metadata: encodeMemoryMetadata(memory, hash),
    };
  });
  await context.store.upsert(records);
  for (const [i, { memory, hash }] of items.entries()) {
    context.engine.add(memory, hash, records[i]?.vector ?? []);
  }
}

/**
 * Duplicates merged into live memories: under those memories' locks, as remember does (except
 * the locks this batch already holds: a line may carry the id of the memory it duplicates).
 */
async function merge(
  context: ServiceContext,
  merged: readonly Memory[],
  held: ReadonlySet<string>,
): Promise<void> {
  if (merged.length === 0) return;
  const { engine } = context;
  await context.lock.runAll(
    merged.map((m) => idLockKey(m.id)).filter((key) => !held.has(key)),
    async () => {
      const nowMs = context.nowMs();
      const live: Memory[] = [];
      for (const m of merged) if ((await engine.get(m.id, nowMs)) !== undefined) live.push(m);
      await applyMerges(context, live, nowMs);
    },
  );
}

function normalised(vector: readonly number[]): number[] | undefined {
  let sum = 0;
  for (const x of vector) {
    if (!Number.isFinite(x)) return undefined;
    sum += x * x;
  }
  // Squares past 1e154 overflow to Infinity (the vector became all zeros), below 1e-154 to 0:
  // such a vector still has a direction, found with its components scaled by the largest.
  if (sum === 0 || sum === Infinity) return scaledNormalised(vector);
  const norm = Math.sqrt(sum);
  return vector.map((x) => x / norm);
}

function scaledNormalised(vector: readonly number[]): number[] | undefined {
  const largest = vector.reduce((most, x) => Math.max(most, Math.abs(x)), 0);
  if (largest === 0) return undefined;
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + (x / largest) ** 2, 0));
  return vector.map((x) => x / largest / norm);
}
