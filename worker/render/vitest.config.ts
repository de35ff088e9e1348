// Runs the platform-free render tests under plain Node until the root config's `core` project includes
// worker/render/** (then this file can go): node_modules/.bin/vitest run --config worker/render/vitest.config.ts
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: new URL("../..", import.meta.url).pathname,
  test: { name: "render", include: ["worker/render/**/*.test.ts", "worker/render/**/*.test.tsx"], environment: "node" },
});
