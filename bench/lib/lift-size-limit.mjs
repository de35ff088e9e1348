// An esbuild plugin for benches that build definitions past the upload's whole-build limit in their own bundle.
import { readFileSync } from "node:fs";

/**
 * An esbuild plugin rewriting worker/openapi/build.ts's MAX_DEFINITION_BYTES to `bytes` in the bench's own bundle
 * (never in the Worker). Throws at bundle time when the constant is no longer written as expected.
 */
export function liftSizeLimit(bytes) {
  return {
    name: "lift-size-limit",
    setup(b) {
      b.onLoad({ filter: /worker[\\/]openapi[\\/]build\.ts$/ }, (args) => {
        const text = readFileSync(args.path, "utf8");
        const lifted = text.replace("export const MAX_DEFINITION_BYTES = 25 * 1024 * 1024;", `export const MAX_DEFINITION_BYTES = ${bytes};`);
        if (lifted === text) throw new Error("lift-size-limit: MAX_DEFINITION_BYTES not found in worker/openapi/build.ts");
        return { contents: lifted, loader: "ts" };
      });
    },
  };
}
