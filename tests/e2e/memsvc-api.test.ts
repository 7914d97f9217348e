import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupMemsvc, startMemsvc, type MemsvcProcess } from "../support/spawn-memsvc.js";

const TOKEN = "e2e-token-0123456789";
const AUTH = { Authorization: `Bearer ${TOKEN}` };
let svc: MemsvcProcess;

beforeAll(async () => {
  svc = await startMemsvc({ env: { MEMSVC_API_AUTH_TOKEN: TOKEN } });
});
afterAll(cleanupMemsvc);

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = AUTH,
) {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] ??= "application/json";
  }
  const res = await fetch(`${svc.baseUrl}${path}`, init);
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: JSON.parse(text) as Record<string, unknown>,
  };
}

/** A raw HTTP/1.1 upload of `size` bytes; resolves with the status and body the client received. */
function upload(size: number, chunked: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      ...AUTH,
      "Content-Type": "application/json",
    };
    if (!chunked) headers["Content-Length"] = size;
    const req = httpRequest(`${svc.baseUrl}/v1/remember`, { method: "POST", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    let answered = false;
    // A server may close the socket once it has answered; only an error before the answer counts.
    req.on("response", () => (answered = true));
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

describe("memsvc serve over HTTP", () => {
  it("prints the real bound port, the embedded store and the embedder on startup", () => {
    expect(svc.port).toBeGreaterThan(0);
    expect(svc.store).toBe(`embedded Chroma at ${svc.dataDir}/chroma`);
    expect(svc.embedder).toBe("local-glove-sif-v1:100 (100 dimensions)");
  });

  it("serves /healthz without a token and /readyz with one", async () => {
    expect(await call("GET", "/healthz", undefined, {})).toMatchObject({
      status: 200,
      body: { status: "ok" },
    });
    expect(await call("GET", "/readyz")).toMatchObject({ status: 200, body: { status: "ready" } });
  });

  it("runs the whole memory lifecycle: remember, dedupe, get, search, recall, stats, delete", async () => {
    const first = await call("POST", "/v1/remember", {
      content: "Deploys run on Fridays",
      type: "rule",
      scope: "permanent",
      tags: ["ops"],
    });
    expect(first.status).toBe(200);
    const id = first.body["id"] as string;
    expect(first.body["stored"]).toBe(true);
    const again = await call("POST", "/v1/remember", {
      content: "  Deploys   run on Fridays ",
      type: "rule",
      scope: "permanent",
      tags: ["ci"],
    });
    expect(again.body).toEqual({ id, stored: true, deduplicated: true });
    await call("POST", "/v1/remember", {
      content: "The billing service uses Postgres",
      project: "billing",
      scope: "project",
    });

    const got = await call("GET", `/v1/memories/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      id,
      type: "rule",
      scope: "permanent",
      tags: ["ops", "ci"],
      access_count: 0,
      expires_at: null,
    });

    const search = await call("POST", "/v1/search", { message: "when do deploys run", limit: 1 });
    expect(search.status).toBe(200);
    const results = search.body["results"] as { memory: { id: string }; score: number }[];
    expect(results).toHaveLength(1);
    expect(results[0]?.memory.id).toBe(id);

    const recall = await call("POST", "/v1/recall", {
      message: "deploys fridays",
      project: "billing",
    });
    expect(recall.status).toBe(200);
    expect(recall.body["context"]).toMatch(
      /^--- Relevant Memories ---\n\[rule\] Deploys run on Fridays\n/,
    );
    expect((await call("GET", `/v1/memories/${id}`)).body["access_count"]).toBe(1);

    const stats = await call("GET", "/v1/stats");
    expect(stats.body).toMatchObject({
      total_memories: 2,
      by_scope: { permanent: 1, project: 1, session: 0, ttl: 0 },
    });

    expect(await call("DELETE", `/v1/memories/${id}`)).toMatchObject({
      status: 200,
      body: { deleted: true },
    });
    expect((await call("GET", `/v1/memories/${id}`)).status).toBe(404);
    expect((await call("DELETE", `/v1/memories/${id}`)).status).toBe(404);
  });

  it("answers 401 without or with a wrong token, before looking at the body", async () => {
    for (const headers of [{}, { Authorization: "Bearer wrong" }]) {
      const res = await call("POST", "/v1/remember", "{broken", headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      expect(typeof res.body["error"]).toBe("string");
    }
    for (const path of ["/v1/stats", "/readyz", "/openapi.json", "/nowhere"]) {
      expect((await call("GET", path, undefined, {})).status, path).toBe(401);
    }
  });

  it("answers 400 with the field named for invalid input, a bad id, bad JSON and a wrong Content-Type", async () => {
    const cases: [string, string, unknown, RegExp, Record<string, string>?][] = [
      ["POST", "/v1/remember", {}, /^content: is required/],
      ["POST", "/v1/remember", { content: "x", type: "note" }, /^type: expected one of/],
      ["POST", "/v1/remember", { content: "x", confidence: -0.1 }, /^confidence: /],
      ["POST", "/v1/remember", { content: "x", tags: "a" }, /^tags: /],
      ["POST", "/v1/recall", { message: "   " }, /^message: /],
      ["POST", "/v1/recall", { message: "x", budget: 0 }, /^budget: /],
      ["POST", "/v1/search", { message: "x", limit: 1001 }, /^limit: /],
      ["GET", "/v1/memories/123", undefined, /^id: expected a UUID/],
      ["POST", "/v1/search", "{oops", /malformed JSON/],
      ["POST", "/v1/search", "[]", /expected a JSON object/],
      [
        "POST",
        "/v1/search",
        '{"message":"x"}',
        /Content-Type/,
        { ...AUTH, "Content-Type": "text/plain" },
      ],
      [
        "POST",
        "/v1/remember",
        '{"content":"caf\u00e9"}',
        /^Content-Type: charset "latin1" is not accepted: send the JSON body in UTF-8$/,
        { ...AUTH, "Content-Type": "application/json; charset=latin1" },
      ],
    ];
    for (const [method, path, body, message, headers] of cases) {
      const res = await call(method, path, body, headers);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body["error"]).toMatch(message);
    }
  });

  it("answers unknown routes with JSON 404 and wrong methods with JSON 405", async () => {
    expect(await call("GET", "/v1/unknown")).toMatchObject({
      status: 404,
      body: { error: "no route for GET /v1/unknown" },
    });
    const res = await call("PUT", "/v1/stats");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(typeof res.body["error"]).toBe("string");
  });

  it("answers 413 to bodies over 1 MB, declared or chunked, and the client receives it", async () => {
    for (const chunked of [false, true]) {
      const res = await upload(4 * 1024 * 1024, chunked);
      expect(res.status, `chunked=${chunked}`).toBe(413);
      expect(JSON.parse(res.body)).toEqual({
        error: "request body exceeds the limit of 1048576 bytes",
      });
    }
    expect((await call("GET", "/healthz", undefined, {})).status).toBe(200);
  });

  it("serves the OpenAPI 3.1 document", async () => {
    const res = await call("GET", "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body["openapi"]).toBe("3.1.0");
    expect(Object.keys(res.body["paths"] as object)).toContain("/v1/memories/{id}");
  });

  it("logs one JSON line per request on stderr", () => {
    const lines = svc
      .stderr()
      .split("\n")
      .filter((l) => l.includes('"msg":"request"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.find((l) => l["path"] === "/v1/stats")).toMatchObject({
      method: "GET",
      status: 200,
    });
    expect(svc.stderr()).not.toContain(TOKEN);
  });
});
