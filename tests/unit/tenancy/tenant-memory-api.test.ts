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
