import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryApiKeyStore } from "../../../../../core/testing/index.js";
import { ApiKeys } from "../../../../../shells/memsvc/auth/api-keys.js";
import { createMemoryListener } from "../../../../../shells/memsvc/http/index.js";
import type { MemoryOf } from "../../../../../shells/memsvc/http/memory-of.js";
import type { Principal } from "../../../../../shells/memsvc/http/principal.js";
import { recordingLogger } from "../../../../unit/shells/memsvc/http/memory-app-fixture.js";
import { AUTH, TOKEN, close, listen, makeMemory } from "./fast-path-fixture.js";

/** The memory API per principal, recording the principal each use case ran as. */
async function recordingMemory(): Promise<{ memory: MemoryOf; seen: Principal[] }> {
  const inner = await makeMemory();
  const seen: Principal[] = [];
  const memory: MemoryOf = (principal) =>
    new Proxy(inner, {
      get(target, name) {
        const value: unknown = Reflect.get(target, name);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          seen.push(principal);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  return { memory, seen };
}

const clock = { ms: Date.parse("2026-11-28T09:00:00.000Z") };

describe.each([
  ["with the fast lane", true],
  ["without it", false],
])("who a request acts as (issue 23), %s", (_name, fastPath) => {
  let served: Awaited<ReturnType<typeof listen>>;
  let seen: Principal[];
  let keys: ApiKeys;
  const { logger, lines } = recordingLogger();
  beforeAll(async () => {
    const recorded = await recordingMemory();
    seen = recorded.seen;
    keys = new ApiKeys({ store: new InMemoryApiKeyStore(), now: () => clock.ms });
    served = await listen(
      createMemoryListener({
        memory: recorded.memory,
        version: "0",
        authToken: TOKEN,
        keys,
        fastPath,
        logger,
      }),
    );
  });
  afterAll(() => close(served));

  /** POST /v1/search twice (the first verifies the key, the second meets the cache). */
  async function searchAs(headers: Record<string, string>) {
    const statuses: number[] = [];
    const bodies: unknown[] = [];
    const before = seen.length;
    for (let i = 0; i < 2; i += 1) {
      const res = await fetch(`${served.url}/v1/search`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify({ message: "deploys" }),
      });
      statuses.push(res.status);
      bodies.push(await res.json());
    }
    return { statuses, bodies, principals: seen.slice(before) };
  }

  it("runs the operator token on the default tenant, or on the one the header names", async () => {
    expect((await searchAs(AUTH)).principals).toEqual([
      { tenant: "default", readOnly: false, operator: true },
      { tenant: "default", readOnly: false, operator: true },
    ]);
    const named = await searchAs({ ...AUTH, "X-Memsvc-Tenant": "acme" });
    expect(named.principals.map((p) => [p.tenant, p.operator])).toEqual([
      ["acme", true],
      ["acme", true],
    ]);
  });

  it("answers 400 naming the header for a tenant name that is not one", async () => {
    for (const name of ["Acme Corp", "-x", "a".repeat(65), ""]) {
      const refused = await searchAs({ ...AUTH, "X-Memsvc-Tenant": name });
      expect(refused.statuses).toEqual([400, 400]);
      expect(refused.bodies[0]).toEqual({
        error: expect.stringMatching(/^X-Memsvc-Tenant: expected a tenant name/),
      });
      expect(refused.principals).toEqual([]);
    }
  });

  it("runs a tenant key on its tenant, read-only flag and key id included", async () => {
    const made = await keys.create({ tenant: "acme", readOnly: true });
    const bearer = { Authorization: `Bearer ${made.key}` };
    const used = await searchAs(bearer);
    expect(used.statuses).toEqual([200, 200]);
    const principal = { tenant: "acme", readOnly: true, operator: false, keyId: made.id };
    expect(used.principals).toEqual([principal, principal]);
    expect((await searchAs({ ...bearer, "X-Memsvc-Tenant": "acme" })).statuses).toEqual([200, 200]);
  });

  it("answers 403 to a tenant key naming another tenant", async () => {
    const made = await keys.create({ tenant: "acme", readOnly: false });
    const other = await searchAs({
      Authorization: `Bearer ${made.key}`,
      "X-Memsvc-Tenant": "beta",
    });
    expect(other.statuses).toEqual([403, 403]);
    expect(other.bodies[0]).toEqual({ error: expect.stringContaining("X-Memsvc-Tenant") });
    expect(other.principals).toEqual([]);
  });

  it("answers 401 with the {error} body at once after a revocation, and for unknown keys", async () => {
    const made = await keys.create({ tenant: "acme", readOnly: false });
    const bearer = { Authorization: `Bearer ${made.key}` };
    expect((await searchAs(bearer)).statuses).toEqual([200, 200]);
    await keys.revoke(made.id);
    const revoked = await searchAs(bearer);
    expect(revoked.statuses).toEqual([401, 401]);
    expect(revoked.bodies[0]).toEqual({ error: "invalid bearer token" });
    expect(revoked.principals).toEqual([]);
    const unknown = made.key.replace(made.id, "0000000000000000");
    expect((await searchAs({ Authorization: `Bearer ${unknown}` })).statuses).toEqual([401, 401]);
  });

  it("answers 401 to an expired key, cached or not", async () => {
    const made = await keys.create({
      tenant: "acme",
      readOnly: false,
      expiresAt: new Date(clock.ms + 60_000).toISOString(),
    });
    const bearer = { Authorization: `Bearer ${made.key}` };
    expect((await searchAs(bearer)).statuses).toEqual([200, 200]);
    clock.ms += 60_000;
    const expired = await searchAs(bearer);
    expect(expired.statuses).toEqual([401, 401]);
    expect(expired.bodies[0]).toEqual({ error: expect.stringMatching(/^expired API key/) });
  });

  it("names the caller in the request log line by key id, never by the key", async () => {
    const made = await keys.create({ tenant: "acme", readOnly: false });
    const before = lines.length;
    await searchAs({ Authorization: `Bearer ${made.key}` });
    await searchAs(AUTH);
    const callers = lines
      .slice(before)
      .filter((line) => line.msg === "request")
      .map((line) => line.fields["caller"]);
    expect(callers).toEqual([`key:${made.id}`, `key:${made.id}`, "operator", "operator"]);
    expect(JSON.stringify(lines)).not.toContain(made.key.slice(21));
  });

  it("keeps GET /healthz open", async () => {
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
  });
});

describe("without an operator token (authentication off, as before)", () => {
  it("runs every request as the operator, on the tenant the header names if any", async () => {
    const { memory, seen } = await recordingMemory();
    const served = await listen(createMemoryListener({ memory, version: "0" }));
    try {
      for (const headers of [
        {},
        { "X-Memsvc-Tenant": "acme" },
        { Authorization: "Bearer whatever" },
      ]) {
        const res = await fetch(`${served.url}/v1/search`, {
          method: "POST",
          headers: { "Content-Type": "application/json", ...headers },
          body: JSON.stringify({ message: "x" }),
        });
        expect(res.status).toBe(200);
      }
      expect(seen.map((p) => [p.tenant, p.operator])).toEqual([
        ["default", true],
        ["acme", true],
        ["default", true],
      ]);
    } finally {
      await close(served);
    }
  });
});
