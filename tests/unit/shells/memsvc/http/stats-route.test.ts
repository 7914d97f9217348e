import { describe, expect, it } from "vitest";
import { makeApp, post } from "./memory-app-fixture.js";

async function seededApp() {
  const fixture = await makeApp();
  const res = await fixture.app.request(
    "/v1/remember/batch",
    post({
      memories: [
        { content: "deploy on Fridays", type: "rule", project: "billing-api", tags: ["ops"] },
        { content: "invoices are monthly", project: "billing-api", tags: ["ops", "money"] },
        { content: "rotate keys", type: "procedure", scope: "permanent", tags: ["security"] },
      ],
    }),
  );
  expect(res.status).toBe(200);
  return fixture;
}

async function getJson(app: Awaited<ReturnType<typeof makeApp>>["app"], path: string) {
  const res = await app.request(path);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("GET /v1/stats with the listing's filters and top (issue 24)", () => {
  it("answers the seed's three fields when no parameter is given", async () => {
    const { app } = await seededApp();
    const { status, body } = await getJson(app, "/v1/stats");
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(["total_memories", "by_type", "by_scope"]);
    expect(body["total_memories"]).toBe(3);
  });

  it("counts the memories passing the filters, tag repeatable as in a listing", async () => {
    const { app } = await seededApp();
    const { body } = await getJson(app, "/v1/stats?project=billing-api&tag=ops&tag=money");
    expect(body).toEqual({
      total_memories: 1,
      by_type: { rule: 0, fact: 1, episode: 0, procedure: 0, preference: 0 },
      by_scope: { permanent: 0, project: 0, session: 1, ttl: 0 },
    });
  });

  it("adds by_project and by_tag with top", async () => {
    const { app } = await seededApp();
    const { body } = await getJson(app, "/v1/stats?q=o&top=1");
    expect(body["by_project"]).toEqual({
      values: [{ value: "billing-api", count: 2 }],
      other: 1,
      distinct: 2,
    });
    expect(body["by_tag"]).toEqual({ values: [{ value: "ops", count: 2 }], other: 2, distinct: 3 });
  });

  it.each([
    ["/v1/stats?top=0", /^top: expected an integer between 1 and 1000/],
    ["/v1/stats?top=many", /^top: expected an integer between 1 and 1000/],
    ["/v1/stats?scope=forever", /^scope: expected one of/],
    ["/v1/stats?projet=billing", /projet.*did you mean "project"/],
  ])("answers 400 naming the field for %s", async (path, message) => {
    const { app } = await seededApp();
    const { status, body } = await getJson(app, path);
    expect(status).toBe(400);
    expect(body["error"]).toMatch(message);
  });

  it("documents the parameters and the new fields in the OpenAPI document", async () => {
    const { app } = await makeApp();
    const doc = (await (await app.request("/openapi.json")).json()) as {
      paths: Record<string, { get?: { parameters?: { name: string }[] } }>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const names = doc.paths["/v1/stats"]?.get?.parameters?.map((p) => p.name) ?? [];
    expect(names).toEqual(expect.arrayContaining(["project", "tag", "q", "top"]));
    expect(Object.keys(doc.components.schemas["Stats"]?.properties ?? {})).toEqual(
      expect.arrayContaining(["by_project", "by_tag"]),
    );
  });
});
