import { request } from "node:http";
import { createServer, type Server } from "node:net";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runSqlsvc, startSqlsvc, toolCall } from "../support/spawn-sqlsvc.js";

const VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

describe("sqlsvc-mcp as a process", () => {
  it("prints usage for --help and exits 0", async () => {
    const run = await runSqlsvc(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: sqlsvc-mcp/);
    expect(run.stdout).toContain("SQLSVC_MCP_AUTH_TOKEN");
  });

  it("prints the package version for --version and exits 0", async () => {
    const run = await runSqlsvc(["--version"]);
    expect([run.code, run.stdout]).toEqual([0, `sqlsvc-mcp ${VERSION}\n`]);
  });

  it("rejects an unknown flag with usage on stderr and exit code 2", async () => {
    const run = await runSqlsvc(["--port=9"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^sqlsvc-mcp: unknown argument: --port=9\n/);
    expect(run.stderr).toContain("Usage: sqlsvc-mcp");
    expect(run.stdout).toBe("");
  });

  it.each([
    ["abc", 'sqlsvc-mcp: configuration error: SQLSVC_MCP_PORT: expected integer, got "abc"\n'],
    ["0", "sqlsvc-mcp: configuration error: SQLSVC_MCP_PORT: 0 is out of range (1-65535)\n"],
    [
      "65536",
      "sqlsvc-mcp: configuration error: SQLSVC_MCP_PORT: 65536 is out of range (1-65535)\n",
    ],
    ["1.5", 'sqlsvc-mcp: configuration error: SQLSVC_MCP_PORT: expected integer, got "1.5"\n'],
  ])("refuses SQLSVC_MCP_PORT=%s before binding, with exit code 1", async (port, message) => {
    const run = await runSqlsvc([], { SQLSVC_MCP_PORT: port, SQLSVC_MCP_ALLOW_PORT_0: "" });
    expect([run.code, run.stderr]).toEqual([1, message]);
  });

  it("reports an address already in use and exits 1", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const run = await runSqlsvc([], { SQLSVC_MCP_PORT: String(port) });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(`^sqlsvc-mcp: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`, "m"),
      );
      expect(run.stderr).not.toContain("listening on");
    } finally {
      blocker.close();
    }
  });

  it("reports a bind failure in a cluster worker and exits 1", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const run = await runSqlsvc([], { SQLSVC_MCP_PORT: String(port), SQLSVC_MCP_WORKERS: "2" });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`sqlsvc-mcp: cannot listen on 127.0.0.1:${port}`);
      // Both workers meet EADDRINUSE; it is said once (issue 24).
      expect(run.stderr.match(/cannot listen on/g)).toHaveLength(1);
    } finally {
      blocker.close();
    }
  });

  it("finishes a request in flight when SIGTERM arrives, then exits 0", async () => {
    const server = await startSqlsvc();
    const body = JSON.stringify(
      toolCall("analyze_sql", { sql: "SELECT id FROM users WHERE id = 1" }),
    );
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: server.port,
          path: "/mcp",
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "Content-Length": Buffer.byteLength(body),
            Expect: "100-continue",
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      // 100 Continue means the server has the request; stop it before the body is even sent.
      req.on("continue", () => {
        server.child.kill("SIGTERM");
        setImmediate(() => req.end(body));
      });
      req.flushHeaders();
    });
    const response = await answered;
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toMatchObject({
      result: { structuredContent: { validate: { valid: true } } },
    });
    expect(await server.ended).toEqual({ code: 0, signal: null });
  });

  it("exits 0 on SIGINT", async () => {
    const server = await startSqlsvc();
    expect(await server.stop("SIGINT")).toEqual({ code: 0, signal: null });
  });

  it("logs one JSON started line after the seed's line and one JSON stopped line (issue 24)", async () => {
    const server = await startSqlsvc({ SQLSVC_MCP_AUTH_TOKEN: "t" });
    expect(await server.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    const lines = server.stderr().trimEnd().split("\n");
    expect(lines[0]).toBe(`sqlsvc-mcp: listening on 127.0.0.1:${server.port} (auth=true)`);
    const json = lines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(json.filter((l) => l["msg"] === "started")).toEqual([
      expect.objectContaining({
        level: "info",
        host: "127.0.0.1",
        port: server.port,
        auth: true,
        workers: 1,
        version: VERSION,
      }),
    ]);
    expect(json.filter((l) => l["msg"] === "stopped")).toEqual([
      expect.objectContaining({ level: "info", reason: "SIGTERM", exit_code: 0 }),
    ]);
    expect(json.at(-1)?.["msg"]).toBe("stopped");
  });
});
