import { beforeAll, describe, expect, it } from "vitest";
import { TenantMemoryApi } from "../../../../../core/tenancy/index.js";
import { createMemoryApp } from "../../../../../shells/memsvc/http/index.js";
import type { Principal } from "../../../../../shells/memsvc/http/principal.js";
import { ApiKeys } from "../../../../../shells/memsvc/auth/api-keys.js";
import { InMemoryApiKeyStore } from "../../../../../core/testing/index.js";
import { tenantFixture } from "../../../../unit/tenancy/tenant-fixture.js";
import { post } from "./memory-app-fixture.js";

const OPERATOR_TOKEN = "operator-token";
const OPERATOR: Principal = { tenant: "default", readOnly: false, operator: true };
const ACME: Principal = { tenant: "acme", readOnly: false, operator: false, keyId: "k-acme" };
const ACME_READER: Principal = { ...ACME, readOnly: true, keyId: "k-acme-ro" };
const GLOBEX: Principal = { tenant: "globex", readOnly: false, operator: false, keyId: "k-globex" };

/**
 * The app over a tenant space with the operator token and real API keys, every call routed by
 * the principal the app's edge finds for the credential (as `memsvc` runs it).
 */
async function tenantApp(memoryQuota?: number) {
  const fixture = await tenantFixture({ ...(memoryQuota === undefined ? {} : { memoryQuota }) });
  const tenantMemory = new TenantMemoryApi(fixture.tenants, {
    caller: () => OPERATOR,
    memoryQuota,
  });
  const keys = new ApiKeys({ store: new InMemoryApiKeyStore() });
  const app = createMemoryApp({
    memory: (principal) => tenantMemory.as(principal),
    tenants: fixture.tenants,
    version: "9.9.9",
    authToken: OPERATOR_TOKEN,
    keys,
  });
  const credentials = new Map<Principal, string>([[OPERATOR, OPERATOR_TOKEN]]);
  for (const who of [ACME, ACME_READER, GLOBEX]) {
    const made = await keys.create({ tenant: who.tenant, readOnly: who.readOnly });
    credentials.set(who, made.key);
  }
  /** One request with `who`'s credential. */
  const call = async (who: Principal, path: string, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set("Authorization", `Bearer ${credentials.get(who) ?? ""}`);
    const res = await app.request(path, { ...init, headers });
    return { status: res.status, body: (await res.text()) || "{}" };
  };
  const json = async (who: Principal, path: string, init?: RequestInit) => {
    const { status, body } = await call(who, path, init);
    return { status, body: JSON.parse(body.split("\n")[0] || "{}") as Record<string, unknown> };
  };
  const remember = async (who: Principal, content: string, project = "web") =>
    (await json(who, "/v1/remember", post({ content, scope: "project", project, tags: ["ops"] })))
      .body["id"] as string;
  return { app, call, json, remember, fixture };
}

const rpc = (name: string, args: unknown) =>
  post(
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
    { Accept: "application/json, text/event-stream" },
  );

describe("the memory API with tenants (issue 23)", () => {
  beforeAll(async () => {
    await import("../../../../../shells/common/mcp/mount-mcp-http.js");
  });

  it("shows, counts, changes and deletes only the caller's tenant, and answers 404 for another tenant's ids", async () => {
    const { json, call, remember } = await tenantApp();
    const mine = await remember(ACME, "Deploys run on Fridays");
    const theirs = await remember(GLOBEX, "Deploys run on Fridays");
    expect(mine).not.toBe(theirs);

    const search = await json(ACME, "/v1/search", post({ message: "deploys fridays" }));
    expect(JSON.stringify(search.body)).toContain(mine);
    expect(JSON.stringify(search.body)).not.toContain(theirs);
    expect((await json(ACME, "/v1/stats")).body["total_memories"]).toBe(1);
    // The stats filters reach the tenant's service: a project and top counts of the caller only.
    const filtered = await json(ACME, "/v1/stats?project=web&top=5");
    expect(filtered.body["total_memories"]).toBe(1);
    expect(filtered.body["by_project"]).toMatchObject({ values: [{ value: "web", count: 1 }] });
    expect((await json(ACME, "/v1/stats?project=api")).body["total_memories"]).toBe(0);
    expect((await call(ACME, "/v1/export")).body).not.toContain(theirs);

    for (const [method, init] of [
      ["GET", undefined],
      ["PATCH", { ...post({ tags: ["x"] }), method: "PATCH" }],
      ["DELETE", { method: "DELETE" }],
    ] as const) {
      const answer = await json(ACME, `/v1/memories/${theirs}`, init);
      expect(answer.status, method).toBe(404);
    }
    const wiped = await json(ACME, "/v1/memories/delete", post({ all: true }));
    expect(wiped.body["deleted"]).toBe(1);
    expect((await json(GLOBEX, `/v1/memories/${theirs}`)).status).toBe(200);
  });

  it("refuses every write of a read-only key with 403 and an {error} body, and lets it read", async () => {
    const { json, call, remember } = await tenantApp();
    const id = await remember(ACME, "Use pnpm, not npm");
    const writes: [string, RequestInit][] = [
      ["/v1/remember", post({ content: "x" })],
      ["/v1/remember/batch", post({ memories: [{ content: "x" }] })],
      [`/v1/memories/${id}`, { ...post({ tags: ["x"] }), method: "PATCH" }],
      [`/v1/memories/${id}`, { method: "DELETE" }],
      ["/v1/memories/delete", post({ all: true })],
      [
        "/v1/import",
        {
          method: "POST",
          headers: { "Content-Type": "application/x-ndjson" },
          body: '{"content":"x"}\n',
        },
      ],
    ];
    for (const [path, init] of writes) {
      const answer = await json(ACME_READER, path, init);
      expect(answer.status, `${init.method} ${path}`).toBe(403);
      expect(answer.body["error"]).toMatch(/read-only/);
    }
    expect((await json(ACME_READER, `/v1/memories/${id}`)).status).toBe(200);
    expect((await json(ACME_READER, "/v1/recall", post({ message: "pnpm" }))).status).toBe(200);
    expect((await call(ACME_READER, "/v1/export")).body).toContain(id);
    // Its recall did not count an access.
    expect((await json(ACME, `/v1/memories/${id}`)).body["access_count"]).toBe(0);
  });

  it("refuses the remember over the quota with 409, exactly at the configured number, and never stores part of a batch", async () => {
    const { json } = await tenantApp(2);
    const answers = await Promise.all(
      ["one", "two", "three", "four"].map((word) =>
        json(ACME, "/v1/remember", post({ content: `memory ${word}` })),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 409, 409]);
    expect(answers.find((a) => a.status === 409)?.body["error"]).toMatch(/quota/);
    const batch = await json(
      GLOBEX,
      "/v1/remember/batch",
      post({ memories: [{ content: "a" }, { content: "b" }, { content: "c" }] }),
    );
    expect(batch.status).toBe(409);
    expect((await json(GLOBEX, "/v1/stats")).body["total_memories"]).toBe(0);
  });

  it("lists the tenants with their counts for the operator only", async () => {
    const { json, remember } = await tenantApp();
    await remember(ACME, "a");
    await remember(OPERATOR, "b");
    expect((await json(OPERATOR, "/v1/tenants")).body).toEqual({
      tenants: [
        { tenant: "acme", memories: 1 },
        { tenant: "default", memories: 1 },
      ],
    });
    const refused = await json(ACME, "/v1/tenants");
    expect(refused.status).toBe(403);
    expect(refused.body["error"]).toMatch(/operator/);
  });

  it("runs the MCP tools inside the caller's tenant and refuses a read-only key's write tools", async () => {
    const { json, remember } = await tenantApp();
    const theirs = await remember(GLOBEX, "The API key rotates monthly");
    const got = await json(ACME, "/mcp", rpc("get_memory", { id: theirs }));
    const result = got.body["result"] as { isError?: boolean; content?: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content?.[0]?.text).toMatch(/^not_found: /);
    const write = await json(
      ACME_READER,
      "/mcp",
      rpc("remember", { content: "x", scope: "permanent" }),
    );
    const refused = write.body["result"] as { isError?: boolean; content?: { text: string }[] };
    expect(refused.isError).toBe(true);
    expect(refused.content?.[0]?.text).toMatch(/^read_only: /);
  });
});
