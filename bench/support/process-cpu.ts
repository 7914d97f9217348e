import { readFileSync, readdirSync } from "node:fs";

/**
 * The process and all its descendants (e.g. cluster workers), from /proc: a breadth-first walk
 * over every thread's `children` list.
 *
 * @example
 * processTree(process.pid); // [1234, 1240, 1241]
 */
export function processTree(pid: number): number[] {
  const pids = [pid];
  // for-of also visits the children pushed while it runs: a breadth-first walk.
  for (const current of pids) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${current}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${current}/task/${task}/children`, "utf8").trim();
        if (children !== "") pids.push(...children.split(/\s+/).map(Number));
      } catch {
        // The task ended meanwhile.
      }
    }
  }
  return pids;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux (getconf CLK_TCK)

/**
 * CPU seconds (user + system, all threads) used so far by `pid` and its descendants, from
 * /proc/<pid>/stat.
 *
 * @example
 * const before = treeCpuSeconds(server.pid); // … load … treeCpuSeconds(server.pid) - before
 */
export function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone meanwhile.
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/**
 * CPU milliseconds used so far by every process named `postgres` (a PostgreSQL server and its
 * backends), from /proc: the store's share when a bench runs the memory service on PostgreSQL.
 *
 * @example
 * const before = postgresCpuMs(); // … load … postgresCpuMs() - before
 */
export function postgresCpuMs(): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone meanwhile.
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
