import type { MemoryApi } from "../../../core/memory/memory-api.js";
import type { Principal } from "./principal.js";

/**
 * The memory a request's principal acts on (`memsvc` serve: its tenant's view,
 * `TenantMemoryApi.as`). The edge decides the principal and the routes ask for its memory with
 * it, explicitly, per request.
 *
 * @example
 * const memoryOf: MemoryOf = (principal) => tenantMemory.as(principal);
 */
export type MemoryOf = (principal: Principal) => MemoryApi;

/**
 * `memory` as a {@link MemoryOf}: itself when it is one, else one memory for every principal (a
 * service without tenants, a test).
 *
 * @example
 * memoryOfOption(service)(OPERATOR) === service; // true
 */
export function memoryOfOption(memory: MemoryApi | MemoryOf): MemoryOf {
  return typeof memory === "function" ? memory : () => memory;
}
