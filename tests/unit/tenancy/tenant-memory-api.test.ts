import { describe, expect, it } from "vitest";
import { isAgentServicesError } from "../../../core/errors.js";
import { tenantFixture } from "./tenant-fixture.js";

describe("TenantMemoryApi (issue 23)", () => {
  it("refuses a caller whose tenant is no tenant name, naming the header", async () => {
    const f = await tenantFixture();
    const error = await f.as("../etc", false, () => f.memory.stats()).catch((e: unknown) => e);
    expect(isAgentServicesError(error, "invalid_input")).toBe(true);
    expect((error as Error).message).toMatch(/^X-Memsvc-Tenant: expected a tenant name/);
  });

  it("sweeps every tenant's expired memories, whoever asks", async () => {
    const f = await tenantFixture();
    for (const tenant of ["default", "acme"]) {
      await f.as(tenant, false, () =>
        f.memory.remember({ content: `short-lived ${tenant}`, scope: "ttl", ttl_seconds: 60 }),
      );
    }
    f.clock.advance(120_000);
    expect(await f.memory.sweepExpired()).toBe(2);
  });

  it("binds an export to the caller when it is asked for, not when it is first read", async () => {
    const f = await tenantFixture();
    await f.as("acme", false, () => f.memory.remember({ content: "acme's only memory" }));
    await f.memory.remember({ content: "the default tenant's memory" });
    const exported = await f.as("acme", true, () => Promise.resolve(f.memory.exportMemories()));
    const contents: string[] = [];
    for await (const memory of exported) contents.push(memory.content);
    expect(contents).toEqual(["acme's only memory"]);
  });

  it("acts as the caller a view was made for, whatever the API's own caller says", async () => {
    const f = await tenantFixture();
    const acme = f.memory.as({ tenant: "acme", readOnly: false });
    await acme.remember({ content: "acme's deploy notes" });
    expect((await f.memory.stats()).total_memories).toBe(0);
    expect((await acme.stats()).total_memories).toBe(1);
    expect(f.memory.as({ tenant: "acme", readOnly: false })).toBe(acme);
    const reader = f.memory.as({ tenant: "acme", readOnly: true });
    const refused = await reader.remember({ content: "a write" }).catch((e: unknown) => e);
    expect(isAgentServicesError(refused, "read_only")).toBe(true);
  });

  it("keeps one tenant's quota across its views and the API itself", async () => {
    const f = await tenantFixture({ memoryQuota: 1 });
    const writes = [
      f.memory.as({ tenant: "acme", readOnly: false }).remember({ content: "first" }),
      f.memory.as({ tenant: "acme", readOnly: false }).remember({ content: "second" }),
      f.as("acme", false, () => f.memory.remember({ content: "third" })),
    ];
    const settled = await Promise.allSettled(writes);
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
    const reasons = settled.flatMap((s) => (s.status === "rejected" ? [s.reason] : []));
    expect(reasons.every((reason) => isAgentServicesError(reason, "quota_exceeded"))).toBe(true);
  });

  it("lends no store-neighbour evidence across tenants (issue 22): each tenant has its own order", async () => {
    const f = await tenantFixture();
    const strong = { content: "payments migration: freeze the payments writes first" };
    const next = { content: "then copy the ledger table" };
    const lift = async (tenant: string) =>
      f.as(tenant, true, async () => {
        const { results } = await f.memory.search({
          message: "payments migration ledger",
          explain: true,
        });
        return results.find((r) => r.memory.content === next.content)?.factors?.neighbour;
      });
    await f.as("acme", false, () => f.memory.remember(strong));
    await f.memory.remember(next);
    expect(await lift("default")).toBe(0);
    await f.as("acme", false, () => f.memory.remember(next));
    expect(await lift("acme")).toBeGreaterThan(0);
  });
});
