import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cleanupMemsvc,
  runMemsvc,
  startMemsvc,
  type MemsvcProcess,
} from "../support/spawn-memsvc.js";
import { startPostgresServer, type PostgresServer } from "../support/postgres-server.js";

/**
 * Three `memsvc serve` replicas on one real PostgreSQL database (started by the test from
 * Debian's binaries): writes on one are found on the others, deletes and PATCHes propagate, the
 * same content stored on all three at once keeps one memory, a replica killed with `kill -9`
 * under 8 writers loses no acknowledged write, and a PostgreSQL restart under load makes the
 * replicas say 503 on `/readyz` and catch up by themselves.
 */
let postgres: PostgresServer;
const replicas: MemsvcProcess[] = [];

async function startReplica(): Promise<MemsvcProcess> {
  return startMemsvc({
    env: {
      MEMSVC_VECTOR_STORE_PROVIDER: "postgres",
      MEMSVC_VECTOR_STORE_POSTGRES_URL: postgres.url,
      MEMSVC_VECTOR_STORE_POSTGRES_POOL_SIZE: "8",
    },
  });
}

async function call(
  replica: MemsvcProcess,
  path: string,
  init?: { method?: string; body?: unknown },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${replica.baseUrl}${path}`, {
    method: init?.method ?? (init?.body === undefined ? "GET" : "POST"),
    ...(init?.body === undefined
      ? {}
      : { body: JSON.stringify(init.body), headers: { "content-type": "application/json" } }),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

/** Polls until `check` holds (at most `ms`); resolves with how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function exportIds(replica: MemsvcProcess): Promise<string[]> {
  const res = await fetch(`${replica.baseUrl}/v1/export`);
  const text = await res.text();
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (JSON.parse(line) as { id: string }).id)
    .sort();
}

/** The acknowledged ids `replica` still lacks after polling its export for at most `ms`. */
async function missingAfter(ms: number, replica: MemsvcProcess, ids: string[]): Promise<string[]> {
  const started = performance.now();
  for (;;) {
    const have = new Set(await exportIds(replica));
    const missing = ids.filter((id) => !have.has(id));
    if (missing.length === 0 || performance.now() - started > ms) return missing;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  postgres = await startPostgresServer();
  for (let i = 0; i < 3; i += 1) replicas.push(await startReplica());
}, 120_000);

afterAll(async () => {
  await cleanupMemsvc();
  await postgres?.stop();
});

describe("memsvc replicas on one PostgreSQL", () => {
  it("names the store on the startup line, never the password", () => {
    for (const replica of replicas) {
      expect(replica.store).toMatch(/^PostgreSQL at 127\.0\.0\.1:\d+\/\w+$/);
    }
  });

  it("memsvc migrate applies nothing to a current schema, and says so", () => {
    const run = runMemsvc(["migrate"], {
      MEMSVC_VECTOR_STORE_PROVIDER: "postgres",
      MEMSVC_VECTOR_STORE_POSTGRES_URL: postgres.url,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^memsvc: PostgreSQL at 127\.0\.0\.1:\d+\/postgres is at schema version \d+; nothing to apply\n$/,
    );
    // Host and port given as parameters (the form a unix socket's directory needs) are named too.
    const params = new URLSearchParams({
      host: "127.0.0.1",
      port: String(postgres.port),
      user: "postgres",
      password: postgres.password,
    });
    const byParams = runMemsvc(["migrate"], {
      MEMSVC_VECTOR_STORE_PROVIDER: "postgres",
      MEMSVC_VECTOR_STORE_POSTGRES_URL: `postgres:///postgres?${params.toString()}`,
    });
    expect(byParams.code, byParams.stderr).toBe(0);
    expect(byParams.stdout).toContain(`PostgreSQL at 127.0.0.1:${postgres.port}/postgres is at`);
  });

  it("memsvc reindex refuses while replicas follow the database, and changes nothing", async () => {
    const stored = await call(replicas[0] as MemsvcProcess, "/v1/remember", {
      body: { content: "Reindex guard: the ferry leaves at noon", scope: "permanent" },
    });
    expect(stored.status).toBe(200);
    const hashing = {
      MEMSVC_VECTOR_STORE_PROVIDER: "postgres",
      MEMSVC_EMBEDDER_LOCAL_MODEL: "hashing",
    };
    const refused = runMemsvc(["reindex"], {
      ...hashing,
      MEMSVC_VECTOR_STORE_POSTGRES_URL: postgres.url,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /memsvc: reindex failed: 3 replicas follow PostgreSQL at 127\.0\.0\.1:\d+\/postgres: stop every replica, then run memsvc reindex again/,
    );
    // The replicas still find it with their embedder: no vector was rewritten.
    const found = await call(replicas[1] as MemsvcProcess, "/v1/search", {
      body: { message: "when does the ferry leave" },
    });
    expect(JSON.stringify(found.body)).toContain(String(stored.body["id"]));
    // A database no replica follows is re-embedded.
    const alone = runMemsvc(["reindex"], {
      ...hashing,
      MEMSVC_VECTOR_STORE_POSTGRES_URL: await postgres.createDatabase(),
    });
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toContain("re-embedded 0 memories");
  });

  it("refuses to start with a clear message for a wrong password or an unreachable server", () => {
    const wrong = new URL(postgres.url);
    wrong.password = "not-the-password";
    const refused = runMemsvc(["serve"], {
      MEMSVC_VECTOR_STORE_PROVIDER: "postgres",
      MEMSVC_VECTOR_STORE_POSTGRES_URL: wrong.toString(),
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/password/i);
    // The line an operator reads says the server's words once, not twice.
    const line = refused.stderr.split("\n").find((l) => l.startsWith("memsvc: startup failed"));
    expect(line?.match(/password authentication failed/g)).toHaveLength(1);
    expect(refused.stderr).not.toContain("not-the-password");
    const away = runMemsvc(["serve"], {
      MEMSVC_VECTOR_STORE_PROVIDER: "postgres",
      MEMSVC_VECTOR_STORE_POSTGRES_URL: "postgres://memsvc:secret@127.0.0.1:9/memories",
    });
    expect(away.code).toBe(1);
    expect(away.stderr).toContain("127.0.0.1:9");
    expect(away.stderr).not.toContain("secret");
  });

  it("refuses a URL whose password is not percent-encoded, saying so, never printing the password", () => {
    for (const [url, says] of [
      ["postgres://memsvc:s3cr/t#pw@127.0.0.1:5432/memories", /percent-encode/],
      // These two parse, as host "memsvc", port 5432 and a fragment or a parameter "s3cr@…".
      ["postgres://memsvc:5432#s3cr@127.0.0.1:5432/memories", /percent-encode/],
      ["postgres://memsvc:5432?s3cr@127.0.0.1:5432/memories", /percent-encode/],
      ["postgress://memsvc:s3cr@t-pw@127.0.0.1:5432/memories", /postgres:\/\/ or postgresql:\/\//],
    ] as const) {
      for (const command of ["serve", "migrate"]) {
        const run = runMemsvc([command], {
          MEMSVC_VECTOR_STORE_PROVIDER: "postgres",
          MEMSVC_VECTOR_STORE_POSTGRES_URL: url,
        });
        expect(run.code, run.stderr).toBe(1);
        expect(run.stderr).toMatch(says);
        expect(run.stderr).toContain("memsvc:***@127.0.0.1:5432/memories");
        expect(run.stderr).not.toContain("s3cr");
      }
    }
  });

  it("a write on one replica is found by search and recall on the others within 1 s", async () => {
    const [a, b, c] = replicas as [MemsvcProcess, MemsvcProcess, MemsvcProcess];
    const { body } = await call(a, "/v1/remember", {
      body: { content: "The on-call rotation changes every Monday at 9:00", type: "rule" },
    });
    const id = body["id"] as string;
    for (const other of [b, c]) {
      await within(1_000, async () => {
        const found = await call(other, "/v1/search", { body: { message: "on-call rotation" } });
        const results = found.body["results"] as { memory: { id: string } }[];
        return results.some((r) => r.memory.id === id);
      });
      const recalled = await call(other, "/v1/recall", { body: { message: "on-call rotation" } });
      expect(recalled.body["context"]).toContain("on-call rotation changes every Monday");
    }
  });

  it("deletes and PATCHes on one replica reach the others", async () => {
    const [a, b, c] = replicas as [MemsvcProcess, MemsvcProcess, MemsvcProcess];
    const { body } = await call(a, "/v1/remember", {
      body: { content: "Staging runs on m5.large", type: "fact", tags: ["infra"] },
    });
    const id = body["id"] as string;
    await within(1_000, async () => (await call(b, `/v1/memories/${id}`)).status === 200);
    expect(
      (await call(b, `/v1/memories/${id}`, { method: "PATCH", body: { tags: ["aws"] } })).status,
    ).toBe(200);
    await within(1_000, async () => {
      const got = await call(c, `/v1/memories/${id}`);
      return JSON.stringify(got.body["tags"]) === '["aws"]';
    });
    expect((await call(c, `/v1/memories/${id}`, { method: "DELETE" })).status).toBe(200);
    await within(1_000, async () => (await call(a, `/v1/memories/${id}`)).status === 404);
  });

  it("an import carrying another tenant's id never touches its memory, on a replica that never served that tenant", async () => {
    // QA of issue 23: b had never served "qa-bravo", so its import upserted over bravo's row.
    const [a, b, c] = replicas as [MemsvcProcess, MemsvcProcess, MemsvcProcess];
    const as = (tenant: string | undefined) =>
      tenant === undefined ? {} : { "X-Memsvc-Tenant": tenant };
    const remembered = await fetch(`${a.baseUrl}/v1/remember`, {
      method: "POST",
      headers: { "content-type": "application/json", ...as("qa-bravo") },
      body: JSON.stringify({ content: "Bravo's launch date is secret", scope: "permanent" }),
    });
    const { id } = (await remembered.json()) as { id: string };
    for (const importer of ["qa-alpha", undefined]) {
      const line = { id, content: `${importer ?? "default"} was here`, scope: "permanent" };
      const imported = await fetch(`${b.baseUrl}/v1/import`, {
        method: "POST",
        headers: { "content-type": "application/x-ndjson", ...as(importer) },
        body: `${JSON.stringify(line)}\n`,
      });
      expect(await imported.json()).toEqual({ imported: 1, deduplicated: 0, rejected: [] });
      const mine = await fetch(`${b.baseUrl}/v1/memories?q=was+here`, { headers: as(importer) });
      const { memories } = (await mine.json()) as { memories: { id: string }[] };
      expect(memories.map((m) => m.id)).not.toContain(id);
      expect(memories).toHaveLength(1);
    }
    const got = await fetch(`${c.baseUrl}/v1/memories/${id}`, { headers: as("qa-bravo") });
    expect(got.status).toBe(200);
    expect(((await got.json()) as { content: string }).content).toBe(
      "Bravo's launch date is secret",
    );
  });

  it("lists on GET /v1/tenants a tenant that only another replica has served", async () => {
    // QA of issue 23: a replica listed only the tenants it had served itself.
    const [a, , c] = replicas as [MemsvcProcess, MemsvcProcess, MemsvcProcess];
    const stored = await fetch(`${a.baseUrl}/v1/remember`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-Memsvc-Tenant": "qa-charlie" },
      body: JSON.stringify({ content: "Charlie's only memory", scope: "permanent" }),
    });
    expect(stored.status).toBe(200);
    await within(2_000, async () => {
      const { body } = await call(c, "/v1/tenants");
      const tenants = body["tenants"] as { tenant: string; memories: number }[];
      return tenants.some((t) => t.tenant === "qa-charlie" && t.memories === 1);
    });
  });

  it("the same content stored on three replicas at the same moment keeps one memory", async () => {
    const content = `The build cache lives in s3://builds-${Date.now()}`;
    const answers = await Promise.all(
      replicas.map((replica) => call(replica, "/v1/remember", { body: { content, type: "fact" } })),
    );
    const ids = new Set(answers.map((a) => a.body["id"]));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.body["deduplicated"] === true)).toHaveLength(2);
  });

  it("kill -9 of a replica under 8 writers loses no acknowledged write", async () => {
    const victim = replicas[2] as MemsvcProcess;
    const acknowledged: string[] = [];
    let stop = false;
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; !stop; i += 1) {
        const target = replicas[(w + i) % 3] as MemsvcProcess;
        try {
          const res = await call(target, "/v1/remember", {
            body: { content: `writer ${w} note ${i} ${Math.random()}`, type: "fact" },
          });
          if (res.status === 200) acknowledged.push(res.body["id"] as string);
        } catch {
          // the killed replica's connections fail; nothing was acknowledged
        }
      }
    });
    // Killed once the writers have had 50 writes acknowledged, however busy the machine is.
    await within(30_000, () => Promise.resolve(acknowledged.length > 50));
    await victim.killHard();
    await new Promise((resolve) => setTimeout(resolve, 500));
    stop = true;
    await Promise.all(writers);
    replicas[2] = await startReplica();
    for (const replica of replicas) {
      await within(5_000, async () => {
        const ids = new Set(await exportIds(replica));
        return acknowledged.every((id) => ids.has(id));
      });
    }
  });

  it("a PostgreSQL restart under load: 503 on /readyz meanwhile, caught up afterwards", async () => {
    const acknowledged: string[] = [];
    const refused = new Set<string>();
    let stop = false;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; !stop; i += 1) {
        const target = replicas[(w + i) % 3] as MemsvcProcess;
        const res = await call(target, "/v1/remember", {
          body: { content: `restart writer ${w} note ${i} ${Math.random()}`, type: "fact" },
        }).catch(() => undefined);
        if (res?.status === 200) acknowledged.push(res.body["id"] as string);
        else {
          if (res !== undefined) refused.add(`${res.status} ${JSON.stringify(res.body)}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await postgres.kill();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const replica of replicas) expect(replica.child.exitCode, replica.stderr()).toBeNull();
    for (const replica of replicas) {
      await within(5_000, async () => (await call(replica, "/readyz")).status === 503);
    }
    // A write while PostgreSQL is away: the seed's 500 for an unavailable store, saying what
    // failed and nothing more (no host, no stack).
    for (const replica of replicas) {
      const res = await call(replica, "/v1/remember", {
        body: { content: "written while PostgreSQL is away", type: "fact" },
      });
      expect([res.status, res.body]).toEqual([500, { error: "vector store unavailable" }]);
    }
    await postgres.restart();
    for (const replica of replicas) {
      await within(15_000, async () => (await call(replica, "/readyz")).status === 200);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    stop = true;
    await Promise.all(writers);
    for (const answer of refused) expect(answer).toBe('500 {"error":"vector store unavailable"}');
    // What the operator reads meanwhile: why the replica is not ready, in words, not stacks.
    for (const replica of replicas) {
      const notReady = replica
        .stderr()
        .split("\n")
        .filter((line) => line.includes('"not ready"'));
      expect(notReady.length).toBeGreaterThan(0);
      for (const line of notReady) expect(line).not.toMatch(/\\n {4}at /);
    }
    // Every replica follows PostgreSQL's change log: a write acknowledged by one replica a few
    // milliseconds ago may still be on its way to the others, so each gets 5 s to have them all.
    for (const [n, replica] of replicas.entries()) {
      const missing = await missingAfter(5_000, replica, acknowledged);
      expect(missing, `replica ${n} lacks acknowledged writes`).toEqual([]);
    }
    const expected = await exportIds(replicas[0] as MemsvcProcess);
    for (const replica of replicas) {
      await within(5_000, async () => {
        const ids = await exportIds(replica);
        return ids.length === expected.length && ids.every((id, i) => id === expected[i]);
      });
    }
  });
});
