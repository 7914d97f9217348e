import { describe, expect, it } from "vitest";
import { isAgentServicesError } from "../../../../core/errors.js";
import { loadSqlsvcConfig } from "../../../../shells/sqlsvc/sqlsvc-config.js";

const cores = { cores: 2 };

function problems(env: Record<string, string>): string[] {
  try {
    loadSqlsvcConfig(env, cores);
  } catch (error) {
    if (isAgentServicesError(error, "config_invalid")) return error.message.split("\n");
    throw error;
  }
  throw new Error("expected a configuration error");
}

describe("loadSqlsvcConfig", () => {
  it("uses 127.0.0.1:8080, no auth and one worker per core when nothing is set", () => {
    expect(loadSqlsvcConfig({}, cores)).toEqual({
      host: "127.0.0.1",
      port: 8080,
      authToken: "",
      workers: 2,
      callBudgetMs: 10_000,
      allowedHosts: [],
      allowedOrigins: [],
    });
  });

  it("treats empty variables as unset", () => {
    expect(
      loadSqlsvcConfig({ SQLSVC_MCP_HOST: "", SQLSVC_MCP_PORT: "", SQLSVC_MCP_WORKERS: "" }, cores),
    ).toEqual({
      host: "127.0.0.1",
      port: 8080,
      authToken: "",
      workers: 2,
      callBudgetMs: 10_000,
      allowedHosts: [],
      allowedOrigins: [],
    });
  });

  it("reads the allowed hosts and origins as comma-separated lists (issue 26)", () => {
    const config = loadSqlsvcConfig(
      { SQLSVC_MCP_ALLOWED_HOSTS: "sqlsvc, box.lan ,", SQLSVC_MCP_ALLOWED_ORIGINS: "*" },
      cores,
    );
    expect(config.allowedHosts).toEqual(["sqlsvc", "box.lan"]);
    expect(config.allowedOrigins).toEqual(["*"]);
  });

  it("reads the per-call budget and checks its range (issue 8)", () => {
    expect(loadSqlsvcConfig({ SQLSVC_MCP_CALL_BUDGET_MS: "2500" }, cores).callBudgetMs).toBe(2500);
    expect(problems({ SQLSVC_MCP_CALL_BUDGET_MS: "50" })).toEqual([
      "SQLSVC_MCP_CALL_BUDGET_MS: 50 is out of range (100-600000)",
    ]);
  });

  it("accepts a leading plus sign and leading zeros in the port, like Go's Atoi", () => {
    expect(loadSqlsvcConfig({ SQLSVC_MCP_PORT: "+8081" }, cores).port).toBe(8081);
    expect(loadSqlsvcConfig({ SQLSVC_MCP_PORT: "0090" }, cores).port).toBe(90);
  });

  it.each([
    ["abc", 'SQLSVC_MCP_PORT: expected integer, got "abc"'],
    [" 80", 'SQLSVC_MCP_PORT: expected integer, got " 80"'],
    ["1.5", 'SQLSVC_MCP_PORT: expected integer, got "1.5"'],
    ["8080\n", 'SQLSVC_MCP_PORT: expected integer, got "8080\\n"'],
    ["99999999999999999999", 'SQLSVC_MCP_PORT: expected integer, got "99999999999999999999"'],
    ["0", "SQLSVC_MCP_PORT: 0 is out of range (1-65535)"],
    ["-1", "SQLSVC_MCP_PORT: -1 is out of range (1-65535)"],
    ["65536", "SQLSVC_MCP_PORT: 65536 is out of range (1-65535)"],
    ["+099999", "SQLSVC_MCP_PORT: 99999 is out of range (1-65535)"],
  ])("rejects SQLSVC_MCP_PORT=%j with the original's message", (value, message) => {
    expect(problems({ SQLSVC_MCP_PORT: value })).toEqual([message]);
  });

  it("allows port 0 (any free port) only when SQLSVC_MCP_ALLOW_PORT_0=1", () => {
    expect(
      loadSqlsvcConfig({ SQLSVC_MCP_PORT: "0", SQLSVC_MCP_ALLOW_PORT_0: "1" }, cores).port,
    ).toBe(0);
  });

  it("trims the auth token and treats a blank one as auth off", () => {
    expect(loadSqlsvcConfig({ SQLSVC_MCP_AUTH_TOKEN: "  tok en \n" }, cores).authToken).toBe(
      "tok en",
    );
    expect(loadSqlsvcConfig({ SQLSVC_MCP_AUTH_TOKEN: "   " }, cores).authToken).toBe("");
  });

  it("uses the host as given", () => {
    expect(loadSqlsvcConfig({ SQLSVC_MCP_HOST: "0.0.0.0" }, cores).host).toBe("0.0.0.0");
  });

  it("reads the worker count and reports a bad one alongside a bad port", () => {
    expect(loadSqlsvcConfig({ SQLSVC_MCP_WORKERS: "1" }, cores).workers).toBe(1);
    expect(problems({ SQLSVC_MCP_PORT: "x", SQLSVC_MCP_WORKERS: "0" })).toEqual([
      'SQLSVC_MCP_PORT: expected integer, got "x"',
      "SQLSVC_MCP_WORKERS: 0 is out of range (1-64)",
    ]);
  });

  it("defaults to at least one worker whatever the core count says", () => {
    expect(loadSqlsvcConfig({}, { cores: 0 }).workers).toBe(1);
  });
});
