import { Gauge, type Registry } from "prom-client";

/** Tenants given their own label value; the others are summed under {@link OTHER_TENANTS}. */
export const TENANT_LABELS = 20;
/** The label value of the tenants past the first {@link TENANT_LABELS} (no tenant name starts with `_`). */
export const OTHER_TENANTS = "_other";

/**
 * Per-tenant counts on `/metrics` (issue 23), read when scraped: `memsvc_tenant_memories{tenant}`
 * for the first `labels` tenants by name and `tenant="_other"` for the sum of the rest, so the
 * label's cardinality stays at most `labels + 1` however many tenants there are; and
 * `memsvc_tenants`, how many tenants hold memories.
 *
 * @example
 * registerTenantMetrics(metrics.registry, () => runtime.tenants.counts());
 * // memsvc_tenant_memories{tenant="acme"} 12
 */
export function registerTenantMetrics(
  registry: Registry,
  read: () => Promise<readonly { tenant: string; memories: number }[]>,
  labels = TENANT_LABELS,
): void {
  let latest: Promise<readonly { tenant: string; memories: number }[]> | undefined;
  // One read per scrape serves both gauges.
  const counts = () => (latest ??= read().finally(() => setImmediate(() => (latest = undefined))));
  new Gauge({
    name: "memsvc_tenant_memories",
    help: `Live memories per tenant: the first ${labels} tenants by name, the rest summed under the tenant label ${OTHER_TENANTS}.`,
    labelNames: ["tenant"],
    registers: [registry],
    async collect() {
      try {
        const sorted = [...(await counts())].sort((a, b) => (a.tenant < b.tenant ? -1 : 1));
        this.reset();
        let other = 0;
        for (const [i, { tenant, memories }] of sorted.entries()) {
          if (i < labels) this.set({ tenant }, memories);
          else other += memories;
        }
        if (sorted.length > labels) this.set({ tenant: OTHER_TENANTS }, other);
      } catch {
        // Leave the gauge as it was rather than fail the whole scrape.
      }
    },
  });
  new Gauge({
    name: "memsvc_tenants",
    help: "Tenants holding live memories.",
    registers: [registry],
    async collect() {
      try {
        this.set((await counts()).length);
      } catch {
        // As above.
      }
    },
  });
}
