/** @module oas2-host-not-example (off by default): `host` does not point at example.com. */

import { defineDocumentRule, OAS2 } from "../define";

const MESSAGE = "Host URL must not point at example.com.";

export const oas2HostNotExample = defineDocumentRule({
  id: "oas2-host-not-example",
  scope: "document",
  severity: "off",
  description: MESSAGE,
  formats: OAS2,
  create: () => ({
    Root: {
      enter(root, ctx) {
        if (typeof root.host === "string" && /example\.com/.test(root.host)) ctx.report(MESSAGE, ["host"]);
      },
    },
  }),
});
