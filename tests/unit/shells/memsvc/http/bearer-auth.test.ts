import { describe, expect, it } from "vitest";
import { makeApp, post } from "./memory-app-fixture.js";

const TOKEN = "s3cret-token";
const auth = { Authorization: `Bearer ${TOKEN}` };

describe("bearer authentication", () => {
  it("leaves /healthz open when a token is configured", async () => {
    const { app } = await makeApp({ authToken: TOKEN });
    expect((await app.request("/healthz")).status).toBe(200);
  });

  it("answers 401 with a JSON error and WWW-Authenticate without a token or with a wrong one", async () => {
    const { app } = await makeApp({ authToken: TOKEN });
    for (const headers of [
      {},
      { Authorization: "Bearer nope" },
      { Authorization: TOKEN },
      { Authorization: `bearer ${TOKEN}` },
    ]) {
      const res = await app.request("/v1/stats", { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      expect(await res.json()).toEqual({ error: expect.stringMatching(/bearer token/) });
    }
  });

  it("checks the token before validation, routing and method checks", async () => {
    const { app } = await makeApp({ authToken: TOKEN });
    expect((await app.request("/v1/remember", post("{broken"))).status).toBe(401);
    expect(await app.request("/v1/remember", post({}))).toHaveProperty("status", 401);
    expect((await app.request("/nowhere")).status).toBe(401);
    expect((await app.request("/v1/remember")).status).toBe(401);
    expect(
      (await app.request("/mcp", post({ jsonrpc: "2.0", id: 1, method: "tools/list" }))).status,
    ).toBe(401);
  });

  it("lets requests with the right token through to validation", async () => {
    const { app } = await makeApp({ authToken: TOKEN });
    expect((await app.request("/v1/remember", post({}, auth))).status).toBe(400);
    expect((await app.request("/v1/remember", post({ content: "x" }, auth))).status).toBe(200);
  });

  it("leaves every route open when no token is configured", async () => {
    const { app } = await makeApp();
    expect((await app.request("/v1/stats")).status).toBe(200);
  });
});
