// `npm run bench`: runs every benchmark in turn and prints their figures. BENCH_ONLY=publish,lint,... picks some.
import { existsSync } from "node:fs";

const only = (process.env.BENCH_ONLY ?? "").split(",").filter(Boolean);
const suites = ["publish", "publish-ops", "huge", "render", "operation-page", "model-read", "render-peers", "lint", "editor", "content", "git", "readers", "playground", "playground-oauth", "search", "assistant", "analytics", "workspace", "search-semantic", "mcp", "shell", "portal-scale", "portal-many", "diff", "diff-fixtures", "corpus-sweep", "fuzz"];
for (const name of suites) {
  if (only.length && !only.includes(name)) continue;
  const file = new URL(`./${name}.mjs`, import.meta.url);
  if (!existsSync(file)) continue;
  const mod = await import(file.href);
  await mod.main();
  console.log("");
}
