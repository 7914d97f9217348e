import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cleanupMemsvc,
  MEMSVC_BIN,
  startMemsvc,
  type MemsvcProcess,
} from "../support/spawn-memsvc.js";

/**
 * Tenants' API keys (issue 23) against a real `memsvc serve` with embedded Chroma: keys made
 * with the CLI and the operator token, used over REST and MCP, revoked, and never shown again.
 */
const TOKEN = "tenant-keys-operator-token";
let svc: MemsvcProcess;

function cli(args: readonly string[], token = TOKEN) {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("MEMSVC_")) env[key] = value;
  }
  const result = spawnSync(process.execPath, [MEMSVC_BIN, "keys", ...args], {
    env: { ...env, MEMSVC_URL: svc.baseUrl, MEMSVC_API_AUTH_TOKEN: token },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function call(
  method: string,
  path: string,
  credential: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${svc.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${credential}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

/** `memsvc keys create …`: the key is alone on the last line. */
function createKey(...args: string[]): { key: string; id: string } {
  const made = cli(["create", ...args]);
  expect(made.code, made.stderr).toBe(0);
  const lines = made.stdout.trimEnd().split("\n");
  const key = lines.at(-1) as string;
  expect(key).toMatch(/^msk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
  return { key, id: key.split("_")[1] as string };
}

beforeAll(async () => {
  svc = await startMemsvc({ env: { MEMSVC_API_AUTH_TOKEN: TOKEN, MEMSVC_LOG_LEVEL: "debug" } });
}, 60_000);
afterAll(cleanupMemsvc);

describe("tenants' API keys over real HTTP (issue 23)", () => {
  it("makes a key with the CLI, uses it, and refuses it at once after revoking it", async () => {
    const { key, id } = createKey("--tenant", "acme");
    const listed = cli(["list"]);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\s+acme\\s+read-write`, "m"));
    expect(listed.stdout).not.toContain(key.slice(21));

    expect(
      (await call("POST", "/v1/remember", key, { content: "Acme deploys on Fridays" })).status,
    ).toBe(200);
    expect((await call("POST", "/v1/search", key, { message: "deploys" })).status).toBe(200);
    expect((await call("GET", "/v1/stats", key)).status).toBe(200);

    const revoked = cli(["revoke", id]);
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked ${id}\n` });
    for (const [method, path, body] of [
      ["POST", "/v1/search", { message: "deploys" }],
      ["GET", "/v1/stats", undefined],
    ] as const) {
      const refused = await call(method, path, key, body);
      expect(refused.status).toBe(401);
      expect(refused.json()).toEqual({ error: "invalid bearer token" });
    }
    expect(cli(["revoke", id]).code).toBe(4);
  });

  it("lets only the operator manage keys: a tenant key exits 5 (403)", async () => {
    const { key } = createKey("--tenant", "acme");
    const refused = cli(["list"], key);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/operator token only/);
    expect(cli(["create", "--tenant", "Not A Name"]).code).toBe(3);
    expect(cli(["create"]).code).toBe(2);
  });

  it("lets the operator name a tenant with X-Memsvc-Tenant, and refuses a key naming another", async () => {
    const named = await call("GET", "/v1/stats", TOKEN, undefined, { "X-Memsvc-Tenant": "acme" });
    expect(named.status).toBe(200);
    const bad = await call("GET", "/v1/stats", TOKEN, undefined, {
      "X-Memsvc-Tenant": "no such/name",
    });
    expect(bad.status).toBe(400);
    expect(bad.json()["error"]).toMatch(/^X-Memsvc-Tenant: /);
    const { key } = createKey("--tenant", "acme");
    expect(
      (await call("GET", "/v1/stats", key, undefined, { "X-Memsvc-Tenant": "acme" })).status,
    ).toBe(200);
    const other = await call("GET", "/v1/stats", key, undefined, { "X-Memsvc-Tenant": "beta" });
    expect(other.status).toBe(403);
    expect(other.json()["error"]).toMatch(/^X-Memsvc-Tenant: /);
  });

  it("lets a read-only key read: search, recall, list, get, stats and export", async () => {
    const { key } = createKey("--tenant", "acme", "--read-only", "--expires", "30d");
    expect(cli(["list", "--tenant", "acme"]).stdout).toMatch(/read-only\s+\S+\s+20\d\d-/);
    const stored = await call(
      "POST",
      "/v1/remember",
      TOKEN,
      { content: "Reads are fine" },
      { "X-Memsvc-Tenant": "acme" },
    );
    const memoryId = String(stored.json()["id"]);
    for (const [method, path, body] of [
      ["POST", "/v1/search", { message: "reads" }],
      ["POST", "/v1/recall", { message: "reads" }],
      ["GET", "/v1/memories", undefined],
      ["GET", `/v1/memories/${memoryId}`, undefined],
      ["GET", "/v1/stats", undefined],
      ["GET", "/v1/export", undefined],
    ] as const) {
      expect((await call(method, path, key, body)).status, `${method} ${path}`).toBe(200);
    }
  });

  it("refuses every write of a read-only key with 403", async () => {
    const { key } = createKey("--tenant", "acme", "--read-only");
    for (const [method, path, body] of [
      ["POST", "/v1/remember", { content: "no" }],
      ["POST", "/v1/remember/batch", { memories: [{ content: "no" }] }],
      ["POST", "/v1/memories/delete", { project: "x" }],
    ] as const) {
      expect((await call(method, path, key, body)).status, `${method} ${path}`).toBe(403);
    }
  });

  it("keeps two tenants' keys apart on every read and write, and answers 404 for the other's ids", async () => {
    const a = createKey("--tenant", "iso-a").key;
    const b = createKey("--tenant", "iso-b").key;
    const same = { content: "The deploy window is Friday 16:00", project: "web", tags: ["ops"] };
    const mine = String((await call("POST", "/v1/remember", a, same)).json()["id"]);
    const theirs = String((await call("POST", "/v1/remember", b, same)).json()["id"]);
    expect(mine).not.toBe(theirs);
    const found = await call("POST", "/v1/search", a, { message: "deploy window" });
    const ids = (found.json()["results"] as { memory: { id: string } }[]).map((r) => r.memory.id);
    expect(ids).toEqual([mine]);
    expect((await call("GET", "/v1/stats", a)).json()["total_memories"]).toBe(1);
    expect((await call("GET", `/v1/memories/${theirs}`, a)).status).toBe(404);
    expect((await call("PATCH", `/v1/memories/${theirs}`, a, { tags: ["x"] })).status).toBe(404);
    expect((await call("DELETE", `/v1/memories/${theirs}`, a)).status).toBe(404);
    await call("POST", "/v1/memories/delete", a, { project: "web" });
    expect((await call("GET", `/v1/memories/${theirs}`, b)).status).toBe(200);
    expect((await call("GET", "/v1/export", b)).text).toContain(theirs);
  });

  it("serves MCP over HTTP with a tenant key (SDK client), and refuses it once revoked", async () => {
    const { key, id } = createKey("--tenant", "acme");
    const connect = async (credential: string) => {
      const client = new Client({ name: "tenant-keys-e2e", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${svc.baseUrl}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${credential}` } },
        }),
      );
      return client;
    };
    const client = await connect(key);
    try {
      const stored = await client.callTool({
        name: "remember",
        arguments: { content: "MCP with a key", scope: "permanent" },
      });
      expect(stored.isError).not.toBe(true);
      const stats = await client.callTool({ name: "memory_stats", arguments: {} });
      expect(stats.isError).not.toBe(true);
    } finally {
      await client.close();
    }
    expect(cli(["revoke", id]).code).toBe(0);
    await expect(connect(key)).rejects.toThrow(/401|invalid bearer token/);
  });

  it("never shows a key or its hash in logs, metrics, errors or exports", async () => {
    const { key } = createKey("--tenant", "acme");
    const secret = key.slice(21);
    const wrong = `${key.slice(0, -4)}AAAA`;
    const answers = [
      (await call("POST", "/v1/remember", key, { content: "secret-free" })).text,
      (await call("POST", "/v1/search", wrong, { message: "x" })).text,
      (await call("GET", "/v1/stats", key, undefined, { "X-Memsvc-Tenant": "other" })).text,
      (await call("GET", "/v1/export", TOKEN)).text,
      (await call("GET", "/v1/keys", TOKEN)).text,
    ];
    const metrics = (await call("GET", "/metrics", TOKEN)).text;
    const file = JSON.parse(readFileSync(join(svc.dataDir, "chroma", "api-keys.json"), "utf8")) as {
      keys: { secretHash: string }[];
    };
    const hashes = file.keys.map((k) => k.secretHash.split("$").at(-1) as string);
    expect(hashes.length).toBeGreaterThan(0);
    const seen = [svc.stdout(), svc.stderr(), metrics, ...answers].join("\n");
    expect(svc.stderr()).toMatch(/"path":"\/v1\/keys"|\/v1\/keys/);
    for (const needle of [secret, wrong.slice(21), ...hashes]) expect(seen).not.toContain(needle);
    expect(JSON.stringify(file)).not.toContain(secret);
  });

  it("keeps keys across a restart: they live in the data directory", async () => {
    const { key } = createKey("--tenant", "acme");
    await svc.stop();
    svc = await startMemsvc({ dataDir: svc.dataDir, env: { MEMSVC_API_AUTH_TOKEN: TOKEN } });
    expect((await call("GET", "/v1/stats", key)).status).toBe(200);
  }, 60_000);
});

describe("the request rate per API key over real HTTP (issue 23)", () => {
  let limited: MemsvcProcess;
  beforeAll(async () => {
    limited = await startMemsvc({
      env: {
        MEMSVC_API_AUTH_TOKEN: TOKEN,
        MEMSVC_API_RATE_LIMIT_REQUESTS_PER_SECOND: "0.001",
        MEMSVC_API_RATE_LIMIT_BURST: "5",
      },
    });
  }, 60_000);

  it("lets exactly the burst of 20 concurrent clients through, the rest 429 with Retry-After", async () => {
    const made = await fetch(`${limited.baseUrl}/v1/keys`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ tenant: "acme" }),
    });
    const { key } = (await made.json()) as { key: string };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${limited.baseUrl}${i % 2 === 0 ? "/v1/search" : "/v1/stats"}`, {
          method: i % 2 === 0 ? "POST" : "GET",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          ...(i % 2 === 0 ? { body: JSON.stringify({ message: "x" }) } : {}),
        }),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    const refused = answers.find((res) => res.status === 429) as Response;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/^rate limit exceeded/) });
  });
});
