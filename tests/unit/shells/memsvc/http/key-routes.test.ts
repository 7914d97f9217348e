import { describe, expect, it } from "vitest";
import { InMemoryApiKeyStore } from "../../../../../core/testing/index.js";
import { ApiKeys } from "../../../../../shells/memsvc/auth/api-keys.js";
import { createServiceMetrics } from "../../../../../shells/memsvc/http/index.js";
import { makeApp } from "./memory-app-fixture.js";

const TOKEN = "operator-token";
const AUTH = { Authorization: `Bearer ${TOKEN}` };

async function setup(options: { token?: string; keys?: boolean } = {}) {
  const keys =
    options.keys === false ? undefined : new ApiKeys({ store: new InMemoryApiKeyStore() });
  const { app } = await makeApp({
    authToken: options.token ?? TOKEN,
    keys,
    metrics: createServiceMetrics("memsvc"),
  });
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = AUTH,
  ) => {
    const res = await app.request(path, {
      method,
      headers: { "Content-Type": "application/json", ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { app, call };
}

describe("the operator's key endpoints (issue 23)", () => {
  it("create a key shown once, list keys without it, and revoke them", async () => {
    const { call } = await setup();
    const made = await call("POST", "/v1/keys", { tenant: "acme", read_only: true });
    expect(made.status).toBe(200);
    expect(made.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      tenant: "acme",
      read_only: true,
      created_at: expect.any(String),
      key: expect.stringMatching(/^msk_/),
    });
    const listed = await call("GET", "/v1/keys");
    expect(listed.body).toEqual({
      keys: [
        {
          id: made.body["id"],
          tenant: "acme",
          read_only: true,
          created_at: made.body["created_at"],
        },
      ],
    });
    expect(JSON.stringify(listed.body)).not.toContain(String(made.body["key"]).slice(21));
    expect((await call("GET", "/v1/keys?tenant=other")).body).toEqual({ keys: [] });
    expect(await call("DELETE", `/v1/keys/${String(made.body["id"])}`)).toEqual({
      status: 200,
      body: { id: made.body["id"], revoked: true },
    });
    expect((await call("DELETE", `/v1/keys/${String(made.body["id"])}`)).status).toBe(404);
  });

  it("keeps expires_at as a UTC instant and defaults read_only to false", async () => {
    const { call } = await setup();
    const made = await call("POST", "/v1/keys", {
      tenant: "acme",
      expires_at: "2099-01-01T02:00:00+02:00",
    });
    expect(made.body).toMatchObject({ read_only: false, expires_at: "2099-01-01T00:00:00.000Z" });
  });

  it.each([
    [{}, /^tenant: is required/],
    [{ tenant: "Acme Corp" }, /^tenant: expected a tenant name/],
    [{ tenant: "acme", read_only: "yes" }, /^read_only: expected true or false/],
    [{ tenant: "acme", expires_at: "tomorrow" }, /^expires_at: expected an ISO 8601 date-time/],
    [
      { tenant: "acme", expires_at: "2020-01-01T00:00:00Z" },
      /^expires_at: expected a date-time in the future/,
    ],
    // QA of issue 23: Date.parse rolls a day that does not exist over (to 2099-03-02).
    [
      { tenant: "acme", expires_at: "2099-02-30T00:00:00Z" },
      /^expires_at: expected a date-time that exists/,
    ],
    [{ tenant: "acme", readonly: true }, /unknown field "readonly"; did you mean "read_only"\?/],
  ])("refuses %j with a 400 naming the field", async (body, message) => {
    const { call } = await setup();
    const refused = await call("POST", "/v1/keys", body);
    expect(refused.status).toBe(400);
    expect(refused.body["error"]).toMatch(message);
  });

  it("refuses a key id that is not one, and a tenant filter that is no name, naming them", async () => {
    const { call } = await setup();
    expect((await call("DELETE", "/v1/keys/nope")).body["error"]).toMatch(/^id: expected a key id/);
    expect((await call("GET", "/v1/keys?tenant=A%20B")).body["error"]).toMatch(/^tenant: expected/);
  });

  it("answers 403 to a tenant key, on the key endpoints and /metrics", async () => {
    const { call } = await setup();
    const made = await call("POST", "/v1/keys", { tenant: "acme" });
    const tenant = { Authorization: `Bearer ${String(made.body["key"])}` };
    for (const [method, path, body] of [
      ["POST", "/v1/keys", { tenant: "acme" }],
      ["GET", "/v1/keys", undefined],
      ["DELETE", `/v1/keys/${String(made.body["id"])}`, undefined],
    ] as const) {
      const refused = await call(method, path, body, tenant);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body["error"]).toMatch(/operator token only/);
    }
    expect((await call("GET", "/metrics", undefined, tenant)).status).toBe(403);
    expect((await call("GET", "/v1/stats", undefined, tenant)).status).toBe(200);
  });

  it("answer 409 saying why without an operator token or without a place for keys", async () => {
    const off = await setup({ token: "" });
    const refused = await off.call("POST", "/v1/keys", { tenant: "acme" }, {});
    expect(refused.status).toBe(409);
    expect(refused.body["error"]).toMatch(/api\.auth_token/);
    const nowhere = await setup({ keys: false });
    expect((await nowhere.call("GET", "/v1/keys")).body["error"]).toMatch(/external Chroma/);
  });
});
