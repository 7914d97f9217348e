import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { registerTenantMetrics } from "../../../../../shells/memsvc/http/tenant-metrics.js";

describe("per-tenant metrics (issue 23)", () => {
  it("labels the first tenants by name and sums the rest as _other, so the label stays bounded", async () => {
    const registry = new Registry();
    const counts = Array.from({ length: 5 }, (_, i) => ({ tenant: `t${i}`, memories: i + 1 }));
    registerTenantMetrics(registry, () => Promise.resolve(counts), 3);
    const text = await registry.metrics();
    expect(text).toContain('memsvc_tenant_memories{tenant="t0"} 1');
    expect(text).toContain('memsvc_tenant_memories{tenant="t2"} 3');
    expect(text).not.toContain('tenant="t3"');
    expect(text).toContain('memsvc_tenant_memories{tenant="_other"} 9');
    expect(text).toContain("memsvc_tenants 5");
  });

  it("has no _other series while every tenant has its own label", async () => {
    const registry = new Registry();
    registerTenantMetrics(registry, () => Promise.resolve([{ tenant: "default", memories: 2 }]));
    const text = await registry.metrics();
    expect(text).toContain('memsvc_tenant_memories{tenant="default"} 2');
    expect(text).not.toContain(`tenant="_other"`);
  });
});
