/** @module oas3-server-not-example.com (off by default): root server URLs do not point at example.com. */

import { defineDocumentRule, OAS3 } from "../define";
import { isObject } from "../util/is-object";

const MESSAGE = "Server URL must not point at example.com.";

export const oas3ServerNotExampleCom = defineDocumentRule({
  id: "oas3-server-not-example.com",
  scope: "document",
  severity: "off",
  description: MESSAGE,
  formats: OAS3,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const servers = ctx.resolveAt(root.servers, ["servers"]);
        if (!Array.isArray(servers.value)) return;
        servers.value.forEach((s, i) => {
          const server = ctx.resolveAt(s, [...servers.path, i]);
          const url = isObject(server.value) ? server.value.url : undefined;
          if (typeof url === "string" && /example\.com/.test(url)) ctx.report(MESSAGE, [...server.path, "url"]);
        });
      },
    },
  }),
});
