/** @module oas3-api-servers: a 3.x document declares a non-empty `servers` array of objects. */

import { defineDocumentRule, OAS3 } from "../define";
import { isObject } from "../util/is-object";

const MESSAGE = 'OpenAPI "servers" must be present and non-empty array.';

export const oas3ApiServers = defineDocumentRule({
  id: "oas3-api-servers",
  scope: "document",
  severity: "warning",
  description: MESSAGE,
  formats: OAS3,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const servers = ctx.resolve(root.servers);
        if (!Array.isArray(servers) || servers.length === 0) return ctx.report(MESSAGE, ["servers"]);
        servers.forEach((s, i) => {
          if (!isObject(ctx.resolve(s))) ctx.report(MESSAGE, ["servers", i]);
        });
      },
    },
  }),
});
