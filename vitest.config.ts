import { defineConfig } from "vitest/config";

/**
 * Three test layers, one `vitest run`:
 * - unit: the pure core with in-memory fakes and a manual clock; no sockets, no child processes,
 *   no temp files, no sleeps (tests/unit/boundary/unit-layer-purity.test.ts checks it).
 * - integration: adapters against the real thing: services on loopback (a real Chroma server
 *   started from the npm-installed binary by the global setup, fake HTTP embedding servers), the
 *   file system (temp directories), child processes and real timers.
 * - e2e: the real shells started as processes (from `dist/`) and spoken to over sockets.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          environment: "node",
          // Hooks load things once per file (the WASM parsers, the MCP SDK): ~1 s
          // on a quiet machine, 8-12 s measured at load 15-20, over the 10 s default.
          hookTimeout: 60_000,
          // The layers run one after another (unit, integration, e2e): on two cores, running
          // them side by side only makes the process-spawning layers slower and flakier.
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/support/chroma-global-setup.ts"],
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // End-to-end files each start real processes; two cores, so keep the fan-out small.
          maxWorkers: 2,
        },
      },
    ],
  },
});
