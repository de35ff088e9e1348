/** @module Check family: request bodies: added, removed, requiredness, media types, and each common media type's schema. */

import { isObject } from "../../model/pointer";
import type { DiffCheck } from "../check";
import { resolveAt } from "../resolve";
import { compareMedia } from "./media";

export const requestBodyCheck: DiffCheck = {
  name: "request bodies",
  run(ctx) {
    for (const { base, revision, operation } of ctx.pairs) {
      const b = base.operation.requestBody === undefined ? undefined : resolveAt(ctx.base.document, base.operation.requestBody, [...base.at, "requestBody"]);
      const r = revision.operation.requestBody === undefined ? undefined : resolveAt(ctx.revision.document, revision.operation.requestBody, [...revision.at, "requestBody"]);
      if (!b && !r) continue;
      if (!b && r) {
        const req = r.node.required === true;
        ctx.emit(req ? "request-body-added-required" : "request-body-added-optional", `${req ? "required" : "optional"} request body added`, { operation, revision: r.at });
        continue;
      }
      if (b && !r) {
        ctx.emit("request-body-removed", "request body removed", { operation, base: b.at });
        continue;
      }
      if (!b || !r) continue;
      const where = { operation, base: b.at, revision: r.at };
      const wasReq = b.node.required === true;
      const isReq = r.node.required === true;
      if (wasReq !== isReq) ctx.emit(isReq ? "request-body-became-required" : "request-body-became-optional", `request body became ${isReq ? "required" : "optional"}`, where);
      const bc = isObject(b.node.content) ? b.node.content : {};
      const rc = isObject(r.node.content) ? r.node.content : {};
      for (const mt of Object.keys(bc)) if (!(mt in rc)) ctx.emit("request-body-media-type-removed", `request media type ${mt} removed`, { operation, base: [...b.at, "content", mt] });
      for (const mt of Object.keys(rc)) if (!(mt in bc)) ctx.emit("request-body-media-type-added", `request media type ${mt} added`, { operation, revision: [...r.at, "content", mt] });
      for (const mt of Object.keys(bc)) if (mt in rc) compareMedia(ctx, bc[mt], rc[mt], [...b.at, "content", mt], [...r.at, "content", mt], "request", `request body (${mt})`, operation);
    }
  },
};
