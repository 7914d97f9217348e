import { AgentServicesError } from "../errors.js";
import { KeyedLock } from "../memory/keyed-lock.js";
import type { MemoryApi } from "../memory/memory-api.js";
import type { MemoryService } from "../memory/memory-service.js";
import type { NdjsonLine } from "../memory/model/ndjson-lines.js";
import type {
  DeleteMatchingInput,
  ListInput,
  RecallInput,
  RememberBatchInput,
  RememberInput,
  SearchInput,
  StatsInput,
  UpdateInput,
} from "../memory/model/types.js";
import type { ExportedMemory } from "../memory/use-cases/export-memories.js";
import { isTenantName, TENANT_NAME_RULE } from "./tenant-metadata.js";
import type { TenantSpace } from "./tenant-space.js";

/** Who a call acts as: the tenant it acts inside and whether it may write. */
export interface Caller {
  readonly tenant: string;
  readonly readOnly: boolean;
}

/** What a {@link TenantMemoryApi} works with. */
export interface TenantMemoryApiOptions {
  /** The caller of the call being made (see {@link TenantMemoryApi.as} for one per request). */
  readonly caller: () => Caller;
  /** Most live memories a tenant may hold (absent: no limit). */
  readonly memoryQuota?: number | undefined;
}

/**
 * The one place a memory call is routed to its tenant (issue 23): every `MemoryApi` call runs on
 * the service of `caller().tenant` (so ids of another tenant's memories are `not_found`, and one
 * tenant's corpus never changes another's ranking), a read-only caller's writes are refused with
 * `read_only` before anything is done and its recalls do not count accesses, and with a quota a
 * remember or batch that would take the tenant over it is refused whole with `quota_exceeded`.
 * The REST routes, the fast lane and the MCP tools all take this as their `MemoryApi`, so none
 * of them can forget the tenant.
 *
 * @example
 * const operator = { tenant: "default", readOnly: false };
 * const memory = new TenantMemoryApi(tenants, { caller: () => operator, memoryQuota: 10_000 });
 * await memory.as(acmeKey).search({ query: "deploys" }); // acme's memories only
 */
export class TenantMemoryApi implements MemoryApi {
  readonly #tenants: TenantSpace;
  readonly #caller: () => Caller;
  readonly #quota: number | undefined;
  /** With a quota, a tenant's growing writes take turns, so two cannot both pass the check. */
  #quotaTurns = new KeyedLock();
  /** The views {@link as} made, by mode and tenant; shared by every view. */
  #views = new Map<string, TenantMemoryApi>();

  constructor(tenants: TenantSpace, options: TenantMemoryApiOptions) {
    this.#tenants = tenants;
    this.#caller = options.caller;
    this.#quota = options.memoryQuota;
  }

  /**
   * This API acting as `caller` whatever its own `caller` says: the same tenant space, quota and
   * quota turns (so the quota holds across views). Kept, one per tenant and mode: the HTTP edge
   * asks for one per request, with the principal it decided, rather than carry it in async
   * context.
   *
   * @example
   * await memory.as({ tenant: "acme", readOnly: true }).search({ query: "deploys" });
   */
  as(caller: Caller): TenantMemoryApi {
    const { tenant, readOnly } = caller;
    const key = `${readOnly ? "r" : "w"}:${tenant}`;
    let view = this.#views.get(key);
    if (view === undefined) {
      const fixed: Caller = { tenant, readOnly };
      view = new TenantMemoryApi(this.#tenants, { caller: () => fixed, memoryQuota: this.#quota });
      view.#quotaTurns = this.#quotaTurns;
      view.#views = this.#views;
      this.#views.set(key, view);
    }
    return view;
  }

  async remember(input: RememberInput) {
    return this.#grow("remember", 1, (s) => s.remember(input));
  }

  async rememberBatch(input: RememberBatchInput) {
    const items = (input as { memories?: unknown } | undefined)?.memories;
    const adds = Array.isArray(items) ? items.length : 0;
    return this.#grow("remember a batch", adds, (s) => s.rememberBatch(input));
  }

  async recall(input: RecallInput) {
    const { service, readOnly } = await this.#read();
    // A read-only key changes nothing, not even the access counts recall keeps.
    return service.recall(input, { countAccesses: !readOnly });
  }

  async search(input: SearchInput) {
    return (await this.#read()).service.search(input);
  }

  async get(id: string) {
    return (await this.#read()).service.get(id);
  }

  async delete(id: string) {
    return (await this.#write("delete a memory")).delete(id);
  }

  async stats(input?: StatsInput) {
    return (await this.#read()).service.stats(input);
  }

  async list(input?: ListInput) {
    return (await this.#read()).service.list(input);
  }

  async update(id: string, input: UpdateInput) {
    return (await this.#write("update a memory")).update(id, input);
  }

  async deleteMatching(input: DeleteMatchingInput) {
    return (await this.#write("delete memories")).deleteMatching(input);
  }

  exportMemories(options?: { readonly vectors?: boolean }): AsyncIterable<ExportedMemory> {
    // The caller is read now, not when iteration starts: a response body may be pulled outside
    // the request's async context.
    const service = this.#read();
    // Handled here too: an export never iterated must not leave an unhandled rejection.
    service.catch(() => undefined);
    return (async function* () {
      yield* (await service).service.exportMemories(options);
    })();
  }

  async importMemories(lines: AsyncIterable<NdjsonLine> | Iterable<NdjsonLine>) {
    return this.#grow("import memories", 1, (s) => s.importMemories(lines));
  }

  /** Every tenant's expired memories (the periodic sweep's work, whoever calls it). */
  async sweepExpired(): Promise<number> {
    return this.#tenants.sweepExpired();
  }

  async #read(): Promise<{ service: MemoryService; readOnly: boolean }> {
    const { tenant, readOnly } = this.#who();
    return { service: await this.#tenants.service(tenant), readOnly };
  }

  /** The caller, its tenant's name checked (the edge checks it too; names reach labels and logs). */
  #who(): Caller {
    const caller = this.#caller();
    if (!isTenantName(caller.tenant)) {
      throw new AgentServicesError(
        "invalid_input",
        `X-Memsvc-Tenant: expected ${TENANT_NAME_RULE}, got ${JSON.stringify(caller.tenant.slice(0, 80))}`,
      );
    }
    return caller;
  }

  async #write(action: string): Promise<MemoryService> {
    const { tenant, readOnly } = this.#who();
    if (readOnly) {
      throw new AgentServicesError(
        "read_only",
        `forbidden: a read-only key cannot ${action} (it may search, recall, list, get, stats and export)`,
      );
    }
    return this.#tenants.service(tenant);
  }

  /** A write that adds up to `adds` memories: refused whole when it could pass the quota. */
  async #grow<T>(action: string, adds: number, task: (s: MemoryService) => Promise<T>): Promise<T> {
    const service = await this.#write(action);
    const quota = this.#quota;
    if (quota === undefined) return task(service);
    const tenant = this.#caller().tenant;
    return this.#quotaTurns.run(tenant, async () => {
      const held = (await service.stats()).total_memories;
      if (held + adds > quota) {
        throw new AgentServicesError(
          "quota_exceeded",
          `memory quota exceeded: tenant ${tenant} holds ${held} of its ${quota} memories; ` +
            `this request could add ${adds} (delete memories or ask the operator to raise tenants.memory_quota)`,
        );
      }
      return task(service);
    });
  }
}
