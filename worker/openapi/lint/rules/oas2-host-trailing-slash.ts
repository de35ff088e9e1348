/** @module oas2-host-trailing-slash: `host` does not end with a slash. */

import { defineDocumentRule, OAS2 } from "../define";

const MESSAGE = "Server URL must not have trailing slash.";

export const oas2HostTrailingSlash = defineDocumentRule({
  id: "oas2-host-trailing-slash",
  scope: "document",
  severity: "warning",
  description: MESSAGE,
  formats: OAS2,
  create: () => ({
    Root: {
      enter(root, ctx) {
        if (typeof root.host === "string" && root.host.endsWith("/")) ctx.report(MESSAGE, ["host"]);
      },
    },
  }),
});
