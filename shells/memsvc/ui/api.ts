import { tenantHeaders } from "./tenant-picker.js";
import { tokenStore } from "./token-store.js";

/** A memory as the service returns it (`GET /v1/memories/{id}`). */
export interface Memory {
  id: string;
  content: string;
  type: string;
  scope: string;
  tags: string[];
  project: string;
  confidence: number;
  created_at: string;
  updated_at: string;
  last_accessed: string;
  access_count: number;
  expires_at: string | null;
}

/** A search hit: the memory subset the search endpoint returns, and its score. */
export interface SearchHit {
  memory: Pick<Memory, "id" | "content" | "type" | "scope" | "confidence"> & Partial<Memory>;
  score: number;
}

/** The list filters, as the list endpoint's query parameters and the bulk delete's fields. */
export interface Filters {
  /** Exactly this project; `""`: the memories without a project (absent: any project). */
  project?: string;
  type?: string;
  scope?: string;
  tag?: string;
  q?: string;
}

/** The most frequent values of a facet (`by_project`, `by_tag` of `GET /v1/stats?top=N`). */
export interface ValueCounts {
  values: { value: string; count: number }[];
  other: number;
  distinct: number;
}

/** Counts by type and scope, and with `top` by project and tag (`GET /v1/stats`). */
export interface Stats {
  total_memories: number;
  by_type: Record<string, number>;
  by_scope: Record<string, number>;
  by_project?: ValueCounts;
  by_tag?: ValueCounts;
}

/** Why recall ranked a memory where it did (`explain: true`), each in [0, 1]. */
export interface RecallFactors {
  lexical: number;
  semantic: number;
  neighbour: number;
  relevance: number;
  recency: number;
  frequency: number;
  type: number;
  scope: number;
  confidence: number;
}

/** A memory recall chose (`items`), or one the budget cut (`explain.cut_by_budget`). */
export interface RecallItem {
  id: string;
  type: string;
  scope: string;
  created_at: string;
  score: number;
  factors?: RecallFactors;
  /** The recalled episode it is in the context around (`recall.context_neighbours`). */
  context_of?: string;
  /** Estimated tokens of its context line (cut items only). */
  tokens?: number;
}

/** What recall would put in the prompt (`POST /v1/recall`), and why with `explain: true`. */
export interface RecallAnswer {
  context: string;
  memory_count: number;
  tokens_used: number;
  items?: RecallItem[];
  explain?: {
    min_score: number;
    candidates: number;
    below_min_score: number;
    cut_by_budget: RecallItem[];
  };
}

/** A non-2xx answer, with the service's `{error}` message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * `fetch`, with a call that got no answer at all (the service stopped, the network down) as an
 * {@link ApiError} of status 0 that says so: fetch's own "Failed to fetch" names neither the
 * service nor the call. A request that cannot be built (a token character a header cannot carry)
 * still fails with its own message.
 */
async function send(path: string, init: RequestInit): Promise<Response> {
  const request = new Request(path, init);
  try {
    return await fetch(request);
  } catch {
    const what = `${request.method} ${path.split("?")[0] ?? path}`;
    throw new ApiError(0, `memsvc did not answer ${what}: is it running and reachable?`);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...tenantHeaders() };
  const token = tokenStore.read();
  if (token !== null) headers["Authorization"] = `Bearer ${token}`;
  const init: RequestInit = { method, headers, credentials: "omit", cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await send(path, init);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === "" ? {} : JSON.parse(text);
  } catch {
    throw new ApiError(res.status, `unexpected answer from ${path} (${res.status})`);
  }
  if (!res.ok) {
    const error = (parsed as { error?: unknown }).error;
    throw new ApiError(res.status, typeof error === "string" ? error : `HTTP ${res.status}`);
  }
  return parsed as T;
}

function authHeaders(): Record<string, string> {
  const token = tokenStore.read();
  return token === null
    ? tenantHeaders()
    : { ...tenantHeaders(), Authorization: `Bearer ${token}` };
}

function errorOf(text: string, status: number): string {
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof error === "string") return error;
  } catch {
    // not JSON
  }
  return `HTTP ${status}`;
}

/** The filters set, trimmed; `project: ""` (no project) is kept, other empty values dropped. */
function filterFields(filters: Filters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (typeof value === "string" && (value.trim() !== "" || key === "project"))
      out[key] = value.trim();
  }
  return out;
}

/**
 * The memory REST API as the page uses it. Every call carries the tab's bearer token.
 *
 * @example
 * const page = await api.list({ type: "rule" }, 50);
 */
export const api = {
  /** Counts of the memories passing `filters`; `top` adds the most frequent projects and tags. */
  stats(filters: Filters = {}, top?: number) {
    const params = new URLSearchParams(filterFields(filters));
    if (top !== undefined) params.set("top", String(top));
    const query = params.toString();
    return call<Stats>("GET", query === "" ? "/v1/stats" : `/v1/stats?${query}`);
  },
  list(filters: Filters, limit: number, cursor?: string) {
    const params = new URLSearchParams(filterFields(filters));
    params.set("limit", String(limit));
    if (cursor !== undefined) params.set("cursor", cursor);
    return call<{ memories: Memory[]; next_cursor: string | null }>(
      "GET",
      `/v1/memories?${params.toString()}`,
    );
  },
  /**
   * The service's ranked search, narrowed by the same filters as the list (`q` aside). Search
   * has no "without a project" filter (its `project` adds the permanent memories and `""` is
   * none): with `project: ""` the hits without a project are kept here.
   */
  async search(message: string, filters: Filters, limit: number) {
    const { project, type, scope, tag } = filterFields(filters);
    const body: Record<string, unknown> = { message, limit, include: ["tags", "project"] };
    if (project !== undefined && project !== "") body["project"] = project;
    if (type !== undefined) body["type"] = type;
    if (scope !== undefined) body["scope"] = scope;
    if (tag !== undefined) body["tags"] = [tag];
    const answer = await call<{ results: SearchHit[] }>("POST", "/v1/search", body);
    if (project !== "") return answer;
    return { results: answer.results.filter((hit) => hit.memory.project === "") };
  },
  /** A real recall, with `explain` (each item's factors, what the floor and the budget cut). */
  recall(message: string, budget: number, project: string) {
    const body: Record<string, unknown> = { message, budget, explain: true };
    if (project.trim() !== "") body["project"] = project.trim();
    return call<RecallAnswer>("POST", "/v1/recall", body);
  },
  get: (id: string) => call<Memory>("GET", `/v1/memories/${encodeURIComponent(id)}`),
  update: (id: string, changes: Partial<Memory> & { ttl_seconds?: number }) =>
    call<Memory & { deduplicated?: true }>(
      "PATCH",
      `/v1/memories/${encodeURIComponent(id)}`,
      changes,
    ),
  remember: (body: Record<string, unknown>) =>
    call<{ id: string; stored: true; deduplicated?: boolean }>("POST", "/v1/remember", body),
  /** Every live memory as NDJSON text (`GET /v1/export`). */
  async exportText(): Promise<string> {
    const res = await send("/v1/export", {
      headers: authHeaders(),
      credentials: "omit",
      cache: "no-store",
    });
    const text = await res.text();
    if (!res.ok) throw new ApiError(res.status, errorOf(text, res.status));
    return text;
  },
  /** Imports NDJSON (`POST /v1/import`); the answer counts what landed. */
  async importText(
    ndjson: Blob,
  ): Promise<{ imported: number; deduplicated: number; rejected: unknown[] }> {
    const res = await send("/v1/import", {
      method: "POST",
      headers: { ...authHeaders(), "Content-Type": "application/x-ndjson" },
      body: ndjson,
      credentials: "omit",
    });
    const text = await res.text();
    if (!res.ok) throw new ApiError(res.status, errorOf(text, res.status));
    return JSON.parse(text) as { imported: number; deduplicated: number; rejected: unknown[] };
  },
  forget: (id: string) =>
    call<{ deleted: true }>("DELETE", `/v1/memories/${encodeURIComponent(id)}`),
  /** Forgets each of `ids` (four calls at a time); resolves with how many were forgotten. */
  async forgetEach(ids: readonly string[]): Promise<number> {
    let done = 0;
    const queue = [...ids];
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        await api.forget(id);
        done++;
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    return done;
  },
  /** Deletes what matches the filters, or everything with `"all"`; `dryRun` only counts. */
  forgetMatching(filters: Filters | "all", dryRun: boolean) {
    const { tag, ...rest } = filters === "all" ? {} : filterFields(filters);
    const body: Record<string, unknown> = filters === "all" ? { all: true } : { ...rest };
    if (tag !== undefined) body["tags"] = [tag];
    if (dryRun) body["dry_run"] = true;
    return call<{ deleted: number; matched?: number }>("POST", "/v1/memories/delete", body);
  },
};
