/**
 * The retrieval-index groups of a memory: a project query ranks only its project's group and the
 * permanent one, so the other projects' memories cost it nothing.
 */
import type { StoreOrderKey } from "../../retrieval/store-order.js";
import type { Memory } from "../model/types.js";

/** The index group of the permanent memories (any project). */
export const PERMANENT_GROUP = "permanent";

/**
 * The index group of a project's memories (prefixed: a project may be named "permanent").
 *
 * @example
 * projectGroup("billing"); // "project:billing"
 */
export function projectGroup(project: string): string {
  return `project:${project}`;
}

/**
 * The index groups a memory belongs to: its project's, and the permanent one.
 *
 * @example
 * groupsOf({ ...memory, project: "billing", scope: "permanent" }); // ["project:billing", "permanent"]
 */
export function groupsOf(memory: Pick<Memory, "project" | "scope">): string[] {
  const groups: string[] = [];
  if (memory.project !== "") groups.push(projectGroup(memory.project));
  if (memory.scope === "permanent") groups.push(PERMANENT_GROUP);
  return groups;
}

/**
 * A memory's place in the store order the index reads its neighbours from: its group is its
 * project and scope (a tenant has its own engine), ordered by creation instant, then insertion
 * number (`tie`), so memories written in one millisecond (a batch) keep the order they came in.
 *
 * @example
 * storeOrderOf({ project: "billing", scope: "session", createdMs: 1000, tie: 3 });
 * // { group: "billing\u0000session", time: 1000, tie: 3 }
 */
export function storeOrderOf(
  held: Pick<Memory, "project" | "scope"> & { readonly createdMs: number; readonly tie: number },
): StoreOrderKey {
  return { group: `${held.project}\u0000${held.scope}`, time: held.createdMs, tie: held.tie };
}

/**
 * Held memories in the order the index keeps its rows in: those without a group first, then
 * group by group (by each one's first group), in the order given within a group.
 *
 * @example
 * [...inGroupOrder(memories)].map((m) => m.project); // ["", "", "billing", "billing", "ops"]
 */
export function inGroupOrder<T extends Pick<Memory, "project" | "scope">>(
  entries: Iterable<T>,
): T[] {
  const byGroup = new Map<string, T[]>([["", []]]);
  for (const entry of entries) {
    const group = groupsOf(entry)[0] ?? "";
    const members = byGroup.get(group);
    if (members === undefined) byGroup.set(group, [entry]);
    else members.push(entry);
  }
  return [...byGroup.values()].flat();
}
