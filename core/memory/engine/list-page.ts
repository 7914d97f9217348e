import { AgentServicesError } from "../../errors.js";
import type { Memory } from "../model/types.js";

/** Order of a listing: by `created_at`, then by id, both the same way. */
export type ListOrder = "newest" | "oldest";

/** Where a page ended: the order key of its last memory. */
interface Position {
  readonly order: ListOrder;
  readonly createdMs: number;
  readonly id: string;
}

/** One page of a listing. */
export interface ListPage {
  readonly memories: Memory[];
  /** Pass as `cursor` for the next page; `null` when this was the last one. */
  readonly next_cursor: string | null;
}

/**
 * Where a listing resumes: the position encoded in `cursor` (a previous page's `next_cursor`), or
 * `undefined` for the first page. Throws `invalid_input` naming `cursor` when it is not one.
 */
export function listPosition(
  cursor: string | undefined,
  order: ListOrder,
): { readonly createdMs: number; readonly id: string } | undefined {
  return cursor === undefined ? undefined : decodeCursor(cursor, order);
}

/**
 * One page from memories already in listing `order` and after the cursor's position (the
 * engine's `liveInOrder`): the first `limit` that `accept` admits (all when omitted), and a
 * cursor when more follow. Stops at the `limit + 1`-th admitted one. The order key is
 * (`created_at`, id), which no write changes (a patch keeps `created_at`), so the cursor is a
 * position, not an offset: paging while memories are added and deleted returns every memory that
 * exists throughout exactly once, never one twice, and whatever was added meanwhile only if it
 * sorts after the position reached.
 *
 * @example
 * const page = takePage(engine.liveInOrder(nowMs, "newest", listPosition(cursor, "newest")), { limit: 50, order: "newest" });
 */
export function takePage(
  ordered: Iterable<Memory>,
  query: {
    readonly limit: number;
    readonly order: ListOrder;
    readonly accept?: (memory: Memory) => boolean;
  },
): ListPage {
  const { accept } = query;
  const taken: Memory[] = [];
  for (const memory of ordered) {
    if (accept !== undefined && !accept(memory)) continue;
    taken.push(memory);
    if (taken.length > query.limit) break;
  }
  const page = taken.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    memories: page,
    next_cursor:
      taken.length > query.limit && last !== undefined
        ? encodeCursor({ order: query.order, createdMs: Date.parse(last.created_at), id: last.id })
        : null,
  };
}

/** Cursors are opaque to clients: base64url of `<order>:<created ms>:<id>`. */
function encodeCursor(position: Position): string {
  const text = `${position.order}:${position.createdMs}:${position.id}`;
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const CURSOR_TEXT = /^(newest|oldest):(-?\d{1,16}):([0-9a-f-]{36})$/;

function decodeCursor(cursor: string, order: ListOrder): Position {
  let text = "";
  try {
    if (cursor.length <= 128) text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    // Not base64: reported below.
  }
  const match = CURSOR_TEXT.exec(text);
  if (match === null) {
    throw new AgentServicesError(
      "invalid_input",
      "cursor: expected the next_cursor of a previous answer",
    );
  }
  if (match[1] !== order) {
    throw new AgentServicesError(
      "invalid_input",
      `cursor: it continues a listing in order "${match[1]}", not "${order}"`,
    );
  }
  return { order, createdMs: Number(match[2]), id: match[3] as string };
}
