import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { SqlToolkit } from "../../../../../core/sql/results.js";
import { Edge, edgeOf } from "../../../../../shells/common/http/edge.js";
import { laneSteps } from "../../../../../shells/common/http/fast-lane.js";
import { OriginPolicy } from "../../../../../shells/common/http/origin-check.js";
import { requestIdConcern } from "../../../../../shells/common/http/request-id.js";
import { requestLog } from "../../../../../shells/common/http/request-log.js";
import { SILENT_LOGGER } from "../../../../../shells/common/logger.js";
import { createServiceMetrics } from "../../../../../shells/common/service-metrics.js";
import { memoryLaneRoutes } from "../../../../../shells/memsvc/http/memory-fast-path.js";
import { memoryJsonCalls } from "../../../../../shells/memsvc/http/memory-json-calls.js";
import { createSqlsvcApp } from "../../../../../shells/sqlsvc/sqlsvc-app.js";
import { makeApp } from "../../memsvc/http/memory-app-fixture.js";

/**
 * What is wrong between an app's global middleware and the fast lane in front of it: every
 * `app.use("*", …)` must be a concern of the app's edge (which has a lane step by type), every
 * concern of the edge must be mounted once and consumed by the lane, and every lane route must
 * be a `POST` route of the app.
 */
function edgeDrift(app: Hono, lanePaths: readonly string[]): string[] {
  const problems: string[] = [];
  const edge = edgeOf(app);
  if (edge === undefined) return ["the app mounts no edge"];
  const names = edge.concerns.map((concern) => concern.name);
  const global = app.routes.filter((route) => route.method === "ALL" && route.path === "/*");
  for (const route of global) {
    const concern = edge.concerns.find((c) => c.middleware === route.handler);
    if (concern === undefined) problems.push("global middleware that is no edge concern");
  }
  for (const concern of edge.concerns) {
    const times = global.filter((route) => route.handler === concern.middleware).length;
    if (times !== 1) problems.push(`${concern.name} mounted ${times} times`);
  }
  const consumed = laneSteps(edge).consumed;
  if (JSON.stringify(consumed) !== JSON.stringify(names)) {
    problems.push(`the lane consumed ${consumed.join(", ")} of ${names.join(", ")}`);
  }
  for (const path of lanePaths) {
    if (!app.routes.some((route) => route.method === "POST" && route.path === path)) {
      problems.push(`the lane answers POST ${path}, the app has no such route`);
    }
  }
  return problems;
}

const toolkit = { validate: () => ({ ok: true, result: { valid: true } }) } as never as SqlToolkit;

describe("the fast lane and the apps' middleware", () => {
  it("has a lane step for every middleware of the memory app, with every option on", async () => {
    const { app, memory } = await makeApp({
      authToken: "tok",
      rateLimit: { requestsPerSecond: 10, burst: 10 },
      metrics: createServiceMetrics("memsvc"),
      origins: new OriginPolicy(),
      ui: { path: "/ui", assets: { version: "v1", indexTemplate: "<html>", files: new Map() } },
    });
    const routes = memoryLaneRoutes(memory, memoryJsonCalls(), SILENT_LOGGER);
    expect(edgeDrift(app, [...routes.keys()])).toEqual([]);
    expect(edgeOf(app)?.concerns.map((concern) => concern.name)).toEqual([
      "request-id",
      "request-log",
      "origin-check",
      "caller-auth",
      "rate-limit",
      "method-not-allowed",
    ]);
  });

  it("has a lane step for every middleware of the memory app without token or metrics", async () => {
    const { app, memory } = await makeApp();
    const routes = memoryLaneRoutes(memory, memoryJsonCalls(), SILENT_LOGGER);
    expect(edgeDrift(app, [...routes.keys()])).toEqual([]);
  });

  it.each([
    [
      "with token, metrics and origin check",
      {
        authToken: "tok",
        metrics: createServiceMetrics("sqlsvc"),
        origins: new OriginPolicy(),
      },
    ],
    ["without", { authToken: "" }],
  ])("has a lane step for every middleware of the sqlsvc app %s", (_name, options) => {
    const app = createSqlsvcApp({ toolkit, version: "0", ...options });
    expect(edgeDrift(app, ["/mcp"])).toEqual([]);
  });

  it("reports a middleware mounted on the app outside its edge (the check really checks)", () => {
    const app = new Hono();
    const edge = new Edge([requestIdConcern()]);
    edge.mount(app, "request-id");
    app.use("*", requestLog(SILENT_LOGGER));
    app.post("/mcp", (c) => c.text("ok"));
    expect(edgeDrift(app, ["/mcp", "/v1/search"])).toEqual([
      "global middleware that is no edge concern",
      "the lane answers POST /v1/search, the app has no such route",
    ]);
  });

  it("reports a concern of the edge left unmounted", () => {
    const app = new Hono();
    const edge = new Edge([requestIdConcern(), requestIdConcern()]);
    expect(() => edge.mount(app, "request-id")).toThrow(/mounted twice/);
    const other = new Hono();
    new Edge([requestIdConcern()]).mount(other);
    expect(edgeDrift(other, [])).toEqual(["request-id mounted 0 times"]);
  });
});

const root = fileURLToPath(new URL("../../../../../", import.meta.url));

/** Files reached from `file` through static imports only (what loads at startup). */
function staticallyLoaded(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = readFileSync(file, "utf8");
  for (const match of source.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s*"(\.{1,2}\/[^"]+)"/gm)) {
    const target = resolve(dirname(file), match[1] ?? "").replace(/\.js$/, ".ts");
    staticallyLoaded(target, seen);
  }
  return seen;
}

describe("the memory listener's startup", () => {
  it("loads no MCP SDK module: the lane's /mcp route and the app's load it on the first request", () => {
    const entry = resolve(root, "shells/memsvc/http/create-memory-listener.ts");
    const loaders = [...staticallyLoaded(entry)].filter((file) =>
      /^import(?!\s+type)[^;]*from\s*"@modelcontextprotocol\/sdk/m.test(readFileSync(file, "utf8")),
    );
    expect(loaders.map((file) => relative(root, file))).toEqual([]);
  });
});
