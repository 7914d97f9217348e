import { describe, expect, it } from "vitest";
import { createServiceMetrics } from "../../../../../shells/memsvc/http/index.js";
import { makeApp } from "./memory-app-fixture.js";

interface Operation {
  operationId?: string;
  responses: Record<string, unknown>;
}
interface Document {
  info: { license?: unknown };
  servers?: unknown;
  paths: Record<string, Record<string, Operation>>;
}

/** The document as served by an app with every optional route (metrics) mounted. */
async function servedDocument() {
  const { app } = await makeApp({ metrics: createServiceMetrics("memsvc") });
  const doc = (await (await app.request("/openapi.json")).json()) as Document;
  return { app, doc };
}

describe("the OpenAPI document", () => {
  it("names every operation with a unique operationId", async () => {
    const { doc } = await servedDocument();
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === "string" && id !== "")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("has a licence, a relative server and the /metrics endpoint", async () => {
    const { doc } = await servedDocument();
    expect(doc.info.license).toEqual({ name: "MIT", identifier: "MIT" });
    expect(doc.servers).toEqual([{ url: "/", description: "This memsvc instance" }]);
    expect(doc.paths["/metrics"]?.["get"]?.responses["401"]).toBeDefined();
  });

  it("lists exactly the routes the app serves, method by method (issue 9)", async () => {
    const { app, doc } = await servedDocument();
    // `ALL` entries are middleware (and the MCP fallback for methods other than POST).
    const served = new Set(
      app.routes
        .filter((route) => route.method !== "ALL")
        .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`),
    );
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    expect([...documented].sort()).toEqual([...served].sort());
    expect(served.size).toBeGreaterThanOrEqual(17);
  });

  it("documents request bodies and the id parameter from the validators' schemas", async () => {
    const { doc } = await servedDocument();
    const patch = doc.paths["/v1/memories/{id}"]?.["patch"] as unknown as {
      requestBody: { content: Record<string, { schema: unknown }> };
      parameters: { name: string; in: string; schema: unknown }[];
    };
    expect(patch.requestBody.content["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/UpdateMemoryRequest",
    });
    expect(patch.parameters).toContainEqual(
      expect.objectContaining({
        name: "id",
        in: "path",
        schema: { type: "string", format: "uuid" },
      }),
    );
  });
});
