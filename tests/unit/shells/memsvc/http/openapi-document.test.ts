import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../../../../shells/memsvc/http/index.js";

describe("the OpenAPI document", () => {
  const doc = buildOpenApiDocument("1.2.3");

  it("names every operation with a unique operationId", () => {
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item)) as {
      operationId?: string;
    }[];
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === "string" && id !== "")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("has a licence, a relative server and the /metrics endpoint", () => {
    expect(doc.info.license).toEqual({ name: "MIT", identifier: "MIT" });
    expect(doc.servers).toEqual([{ url: "/", description: "This memsvc instance" }]);
    expect(doc.paths["/metrics"].get.responses["401"]).toBeDefined();
  });
});
