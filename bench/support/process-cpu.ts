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
 * CPU milliseconds used so far by a PostgreSQL server: its postmaster `pid` (with the CPU of the
 * children it has reaped), and its live backends, from /proc. Without `pid`, every process named
 * `postgres` on the machine, which counts other users' servers too.
 *
 * @example
 * const before = postgresCpuMs(postmasterPid(port)); // … load … postgresCpuMs(pid) - before
 */
export function postgresCpuMs(pid?: number): number {
  let ticks = 0;
  const pids =
    pid === undefined
      ? readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))
      : processTree(pid).map(String);
  for (const entry of pids) {
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
      // cutime + cstime: the backends that already exited.
      if (pid !== undefined && entry === String(pid))
        ticks += Number(fields[13]) + Number(fields[14]);
    } catch {
      // Gone meanwhile.
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * The postmaster of the PostgreSQL server listening on `port` (its command line says `-p port`),
 * or undefined.
 *
 * @example
 * postmasterPid(5432); // 1234
 */
export function postmasterPid(port: number): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const at = args.indexOf("-p");
      if (args[0]?.endsWith("/postgres") && at !== -1 && args[at + 1] === String(port)) {
        return Number(entry);
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}
