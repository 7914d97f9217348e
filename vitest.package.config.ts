import { defineConfig } from "vitest/config";

/**
 * The package layer (`npm run test:package`, run by `.ci/run` after `npm test`): packs the
 * project, installs the tarball into a new project in a temp directory from the npm registry and
 * runs the installed bins and library there, as a user would. Slow (an install) and needs the
 * registry, so it is not part of `npm test`.
 */
export default defineConfig({
  test: {
    name: "package",
    include: ["tests/package/**/*.test.ts"],
    testTimeout: 120_000,
    // npm pack (which builds) and npm install with a cold cache.
    hookTimeout: 600_000,
  },
});
