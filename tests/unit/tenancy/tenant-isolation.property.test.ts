import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAgentServicesError } from "../../../core/errors.js";
import type { NdjsonLine } from "../../../core/memory/model/ndjson-lines.js";
import { InMemoryVectorStore } from "../../../core/testing/index.js";
import { exportOf, tenantFixture } from "./tenant-fixture.js";

const TENANTS = ["default", "acme", "globex"] as const;
const CONTENTS = ["Deploys run on Fridays", "Use pnpm, not npm", "The API key rotates monthly"];
const PROJECTS = ["web", "api"];
const TAGS = ["ops", "build", "secrets"];

type Op =
  | { kind: "remember"; content: number; project: number; tag: number }
  | { kind: "batch"; contents: number[] }
  | { kind: "search" | "recall"; content: number }
  | { kind: "list" | "stats" | "export" }
  | { kind: "get" | "update" | "delete"; owner: number; pick: number }
  | { kind: "deleteMatching"; dryRun: boolean; project: number | undefined }
  | { kind: "import"; owner: number };

const index = (n: number) => fc.integer({ min: 0, max: n - 1 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("remember" as const),
    content: index(CONTENTS.length),
    project: index(PROJECTS.length),
    tag: index(TAGS.length),
  }),
  fc.record({
    kind: fc.constant("batch" as const),
    contents: fc.array(index(CONTENTS.length), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constantFrom("search" as const, "recall" as const), content: index(3) }),
  fc.record({ kind: fc.constantFrom("list" as const, "stats" as const, "export" as const) }),
  fc.record({
    kind: fc.constantFrom("get" as const, "update" as const, "delete" as const),
    owner: index(TENANTS.length),
    pick: fc.nat(),
  }),
  fc.record({
    kind: fc.constant("deleteMatching" as const),
    dryRun: fc.boolean(),
    project: fc.option(index(PROJECTS.length), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant("import" as const), owner: index(TENANTS.length) }),
);
const stepArb = fc.record({ tenant: index(TENANTS.length), readOnly: fc.boolean(), op: opArb });

async function refusal(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("tenant isolation (issue 23), against a model", () => {
  it("never lets a call of one tenant return, count, change or delete another tenant's memories, and read-only callers change nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 30 }), async (steps) => {
        const store = new InMemoryVectorStore();
        const f = await tenantFixture({ store });
        /** The model: the ids each tenant holds. */
        const model = new Map<string, Set<string>>(TENANTS.map((t) => [t, new Set()]));
        const idsOf = (tenant: string) => model.get(tenant) as Set<string>;
        const ownerOfId = (id: string) => TENANTS.find((t) => idsOf(t).has(id));
        for (const { tenant: t, readOnly, op } of steps) {
          const tenant = TENANTS[t] as string;
          const mine = idsOf(tenant);
          const before = new Map<string, string[]>();
          for (const other of TENANTS) before.set(other, await exportOf(f, other));
          const run = <T>(work: () => Promise<T>) => f.as(tenant, readOnly, work);
          const writes = !["search", "recall", "list", "stats", "export", "get"].includes(op.kind);

          if (readOnly && writes) {
            const error = await refusal(run(() => perform(op)));
            expect(isAgentServicesError(error, "read_only"), op.kind).toBe(true);
          } else {
            await run(() => perform(op));
          }
          // Nothing of another tenant changed; nothing at all when read-only.
          for (const other of TENANTS) {
            if (other === tenant && !readOnly) continue;
            expect(await exportOf(f, other), `${other} after ${op.kind} by ${tenant}`).toEqual(
              before.get(other),
            );
          }
          // The tenant sees exactly what the model says it holds.
          const listed = await f.as(tenant, true, () => f.memory.list({ limit: 1000 }));
          expect(new Set(listed.memories.map((m) => m.id))).toEqual(mine);

          async function perform(o: Op): Promise<void> {
            const m = f.memory;
            const pickOf = (owner: number, pick: number) => {
              const ids = [...idsOf(TENANTS[owner] as string)];
              return ids.length === 0
                ? "00000000-0000-4000-8000-00000000ffff"
                : ids[pick % ids.length];
            };
            switch (o.kind) {
              case "remember": {
                const { id } = await m.remember({
                  content: CONTENTS[o.content] as string,
                  type: "fact",
                  scope: "project",
                  project: PROJECTS[o.project] as string,
                  tags: [TAGS[o.tag] as string],
                });
                expect(ownerOfId(id) ?? tenant).toBe(tenant);
                mine.add(id);
                return;
              }
              case "batch": {
                const { memories: results } = await m.rememberBatch({
                  memories: o.contents.map((c) => ({ content: CONTENTS[c] as string })),
                });
                for (const r of results) {
                  expect(ownerOfId(r.id) ?? tenant).toBe(tenant);
                  mine.add(r.id);
                }
                return;
              }
              case "search": {
                const { results } = await m.search({ message: CONTENTS[o.content] as string });
                for (const r of results) expect(mine.has(r.memory.id)).toBe(true);
                return;
              }
              case "recall": {
                const answer = await m.recall({
                  message: CONTENTS[o.content] as string,
                  items: true,
                });
                for (const item of answer.items ?? []) expect(mine.has(item.id)).toBe(true);
                return;
              }
              case "list":
                return;
              case "stats":
                expect((await m.stats()).total_memories).toBe(mine.size);
                return;
              case "export":
                expect((await exportOf(f, tenant)).length).toBe(mine.size);
                return;
              case "get":
              case "update":
              case "delete": {
                const id = pickOf(o.owner, o.pick) as string;
                const work =
                  o.kind === "get"
                    ? m.get(id)
                    : o.kind === "update"
                      ? m.update(id, { tags: ["changed"] })
                      : m.delete(id);
                const error = await refusal(work);
                if (isAgentServicesError(error, "read_only")) throw error;
                if (mine.has(id)) {
                  expect(error).toBeUndefined();
                  if (o.kind === "delete") mine.delete(id);
                } else {
                  // Another tenant's id is unknown here, never forbidden: existence is not revealed.
                  expect(isAgentServicesError(error, "not_found"), o.kind).toBe(true);
                }
                return;
              }
              case "deleteMatching": {
                const project = o.project === undefined ? undefined : PROJECTS[o.project];
                const input =
                  project === undefined
                    ? { all: true, dry_run: o.dryRun }
                    : { project, dry_run: o.dryRun };
                const held = await m.list({ limit: 1000 });
                const matching = held.memories.filter(
                  (x) => project === undefined || x.project === project,
                ).length;
                const result = await m.deleteMatching(input);
                // It counts (or deletes) exactly this tenant's matching memories.
                expect(o.dryRun ? result.matched : result.deleted).toBe(matching);
                if (!o.dryRun) {
                  const left = await m.list({ limit: 1000 });
                  mine.clear();
                  for (const x of left.memories) mine.add(x.id);
                }
                return;
              }
              case "import": {
                // Another tenant's export imported here: copies with new ids, the originals untouched.
                const lines: NdjsonLine[] = (await exportOf(f, TENANTS[o.owner] as string)).map(
                  (text, i) => ({ line: i + 1, text }),
                );
                await m.importMemories(lines);
                const after = await m.list({ limit: 1000 });
                for (const x of after.memories) {
                  expect(ownerOfId(x.id) ?? tenant).toBe(tenant);
                  mine.add(x.id);
                }
                return;
              }
            }
          }
        }
        // A restart (one scan of the store, split by tenant) gives each tenant its own again.
        const again = await tenantFixture({ store });
        for (const tenant of TENANTS) {
          const listed = await again.as(tenant, true, () => again.memory.list({ limit: 1000 }));
          expect(new Set(listed.memories.map((m) => m.id))).toEqual(idsOf(tenant));
        }
      }),
      { numRuns: 60 },
    );
    // 60 random histories: ~1 s on a quiet machine, 4 s measured at load 14; never a timing goal.
  }, 60_000);
});
