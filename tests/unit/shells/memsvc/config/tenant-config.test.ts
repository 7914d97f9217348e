import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../../../shells/memsvc/config/index.js";

const cwd = "/nonexistent-dir";

function load(env: Record<string, string>) {
  return loadConfig({ env, cwd });
}

describe("the tenants' configuration (issue 23)", () => {
  it("has no quota and stdio MCP on the default tenant by default", () => {
    const result = load({});
    if (!result.ok) throw new Error(result.problems.join("\n"));
    expect(result.config.tenants).toEqual({ memoryQuota: undefined });
    expect(result.config.mcp).toEqual({ tenant: "default" });
  });

  it("reads the quota and stdio MCP's tenant from MEMSVC_TENANTS_MEMORY_QUOTA and MEMSVC_MCP_TENANT", () => {
    const result = load({ MEMSVC_TENANTS_MEMORY_QUOTA: "500", MEMSVC_MCP_TENANT: "acme" });
    if (!result.ok) throw new Error(result.problems.join("\n"));
    expect(result.config.tenants.memoryQuota).toBe(500);
    expect(result.config.mcp.tenant).toBe("acme");
  });

  it("names both settings when the quota is no positive integer and the tenant no tenant name", () => {
    const result = load({ MEMSVC_TENANTS_MEMORY_QUOTA: "0", MEMSVC_MCP_TENANT: "a b" });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems.join("\n");
    expect(problems).toMatch(/MEMSVC_TENANTS_MEMORY_QUOTA|tenants\.memory_quota/);
    expect(problems).toMatch(/MEMSVC_MCP_TENANT|mcp\.tenant/);
  });
});
