import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryApiKeyStore } from "../../../../../core/testing/index.js";
import { ApiKeys } from "../../../../../shells/memsvc/auth/api-keys.js";
import { createMemoryListener } from "../../../../../shells/memsvc/http/index.js";
import { AUTH, TOKEN, close, listen, makeMemory } from "./fast-path-fixture.js";

const BURST = 5;

describe.each([
  ["with the fast lane", true],
  ["without it", false],
])("the request rate per API key (issue 23), %s", (_name, fastPath) => {
  let served: Awaited<ReturnType<typeof listen>>;
  let keys: ApiKeys;
  beforeAll(async () => {
    keys = new ApiKeys({ store: new InMemoryApiKeyStore() });
    served = await listen(
      createMemoryListener({
        memory: await makeMemory(),
        version: "0",
        authToken: TOKEN,
        keys,
        // A token every 1,000 s: none comes back while the test runs.
        rateLimit: { requestsPerSecond: 0.001, burst: BURST },
        fastPath,
      }),
    );
  });
  afterAll(() => close(served));

  const search = (headers: Record<string, string>, body: unknown = { message: "deploys" }) =>
    fetch(`${served.url}/v1/search`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  it("lets exactly the burst through among concurrent clients, then 429 with Retry-After", async () => {
    const { key } = await keys.create({ tenant: "acme", readOnly: false });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => search({ Authorization: `Bearer ${key}` })),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(BURST);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - BURST);
    const refused = answers.find((res) => res.status === 429) as Response;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/^rate limit exceeded/) });
  });

  it("keeps one bucket per key and one for the operator", async () => {
    const a = await keys.create({ tenant: "acme", readOnly: false });
    const b = await keys.create({ tenant: "acme", readOnly: false });
    for (const headers of [
      { Authorization: `Bearer ${a.key}` },
      { Authorization: `Bearer ${b.key}` },
      AUTH,
    ]) {
      const statuses = [];
      for (let i = 0; i <= BURST; i += 1) statuses.push((await search(headers)).status);
      expect(statuses).toEqual([...Array<number>(BURST).fill(200), 429]);
    }
    // /healthz takes no token.
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
  });

  it("takes one token of a request the fast lane hands over to the app (a refusal), not two", async () => {
    const { key } = await keys.create({ tenant: "acme", readOnly: false });
    const bearer = { Authorization: `Bearer ${key}` };
    const statuses = [(await fetch(`${served.url}/v1/stats`, { headers: bearer })).status];
    statuses.push((await search(bearer, { message: "x", limit: "many" })).status);
    for (let i = 0; i < BURST - 1; i += 1) statuses.push((await search(bearer)).status);
    expect(statuses).toEqual([200, 400, 200, 200, 200, 429]);
  });
});
