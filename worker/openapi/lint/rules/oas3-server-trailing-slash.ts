/** @module oas3-server-trailing-slash: root server URLs do not end with a slash (a bare `/` is fine). */

import { defineDocumentRule, OAS3 } from "../define";
import { isObject } from "../util/is-object";

const MESSAGE = "Server URL must not have trailing slash.";

export const oas3ServerTrailingSlash = defineDocumentRule({
  id: "oas3-server-trailing-slash",
  scope: "document",
  severity: "warning",
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
          if (typeof url === "string" && /.\/$/.test(url)) ctx.report(MESSAGE, [...server.path, "url"]);
        });
      },
    },
  }),
});
