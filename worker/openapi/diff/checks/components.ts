/** @module Check family: components: security schemes (type, OAuth URLs and scopes) and schemas removed. */

import { isObject } from "../../model/pointer";
import type { DiffCheck } from "../check";
import { resolveAt } from "../resolve";

const section = (doc: Record<string, unknown>, name: string): Record<string, unknown> => (isObject(doc.components) && isObject(doc.components[name]) ? doc.components[name] : {});

export const componentsCheck: DiffCheck = {
  name: "components",
  run(ctx) {
    const bs = section(ctx.base.document, "securitySchemes");
    const rs = section(ctx.revision.document, "securitySchemes");
    for (const name of Object.keys(bs)) if (!(name in rs)) ctx.emit("api-security-component-removed", `security scheme ${name} removed`, { base: ["components", "securitySchemes", name] });
    for (const name of Object.keys(rs)) if (!(name in bs)) ctx.emit("api-security-component-added", `security scheme ${name} added`, { revision: ["components", "securitySchemes", name] });
    for (const name of Object.keys(bs)) {
      if (!(name in rs)) continue;
      const b = resolveAt(ctx.base.document, bs[name], ["components", "securitySchemes", name]);
      const r = resolveAt(ctx.revision.document, rs[name], ["components", "securitySchemes", name]);
      if (!b || !r) continue;
      const where = { base: b.at, revision: r.at };
      if (b.node.type !== r.node.type) ctx.emit("api-security-component-type-changed", `security scheme ${name}: type changed from ${String(b.node.type)} to ${String(r.node.type)}`, where);
      const bf = isObject(b.node.flows) ? b.node.flows : {};
      const rf = isObject(r.node.flows) ? r.node.flows : {};
      for (const flow of Object.keys(bf)) {
        const bflow = bf[flow];
        const rflow = rf[flow];
        if (!isObject(bflow) || !isObject(rflow)) continue;
        const at = { base: [...b.at, "flows", flow], revision: [...r.at, "flows", flow] };
        if (bflow.authorizationUrl !== rflow.authorizationUrl) ctx.emit("api-security-component-oauth-url-changed", `security scheme ${name} (${flow}): authorizationUrl changed`, at);
        if (bflow.tokenUrl !== rflow.tokenUrl) ctx.emit("api-security-component-oauth-token-url-changed", `security scheme ${name} (${flow}): tokenUrl changed`, at);
        const bsc = isObject(bflow.scopes) ? Object.keys(bflow.scopes) : [];
        const rsc = isObject(rflow.scopes) ? Object.keys(rflow.scopes) : [];
        for (const s of rsc) if (!bsc.includes(s)) ctx.emit("api-security-component-oauth-scope-added", `security scheme ${name} (${flow}): scope ${s} added`, at);
        for (const s of bsc) if (!rsc.includes(s)) ctx.emit("api-security-component-oauth-scope-removed", `security scheme ${name} (${flow}): scope ${s} removed`, at);
      }
    }
    const bsch = section(ctx.base.document, "schemas");
    const rsch = section(ctx.revision.document, "schemas");
    for (const name of Object.keys(bsch)) if (!(name in rsch)) ctx.emit("api-schema-removed", `schema ${name} removed from components`, { base: ["components", "schemas", name] });
  },
};
