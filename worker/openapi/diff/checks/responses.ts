/**
 * @module Check family: responses: status codes (2xx "success" removals break), media types, headers, and each
 * common media type's schema read in the response direction.
 */

import { isObject } from "../../model/pointer";
import type { DiffCheck } from "../check";
import type { DiffContext, OperationPair } from "../context";
import { resolveAt, type Located } from "../resolve";
import { compareMedia } from "./media";

const success = (status: string) => /^2/.test(status);

export const responsesCheck: DiffCheck = {
  name: "responses",
  run(ctx) {
    for (const pair of ctx.pairs) {
      const { base, revision, operation } = pair;
      const br = isObject(base.operation.responses) ? base.operation.responses : {};
      const rr = isObject(revision.operation.responses) ? revision.operation.responses : {};
      for (const status of Object.keys(br)) {
        if (status.startsWith("x-") || status in rr) continue;
        ctx.emit(success(status) ? "response-success-status-removed" : "response-non-success-status-removed", `response ${status} removed`, { operation, base: [...base.at, "responses", status] });
      }
      for (const status of Object.keys(rr)) {
        if (status.startsWith("x-") || status in br) continue;
        ctx.emit(success(status) ? "response-success-status-added" : "response-non-success-status-added", `response ${status} added`, { operation, revision: [...revision.at, "responses", status] });
      }
      for (const status of Object.keys(br)) {
        if (status.startsWith("x-") || !(status in rr)) continue;
        const b = resolveAt(ctx.base.document, br[status], [...base.at, "responses", status]);
        const r = resolveAt(ctx.revision.document, rr[status], [...revision.at, "responses", status]);
        if (b && r) compareResponse(ctx, pair, status, b, r);
      }
    }
  },
};

function compareResponse(ctx: DiffContext, { operation }: OperationPair, status: string, b: Located, r: Located): void {
  const bc = isObject(b.node.content) ? b.node.content : {};
  const rc = isObject(r.node.content) ? r.node.content : {};
  for (const mt of Object.keys(bc)) if (!(mt in rc)) ctx.emit("response-media-type-removed", `response ${status}: media type ${mt} removed`, { operation, base: [...b.at, "content", mt] });
  for (const mt of Object.keys(rc)) if (!(mt in bc)) ctx.emit("response-media-type-added", `response ${status}: media type ${mt} added`, { operation, revision: [...r.at, "content", mt] });
  for (const mt of Object.keys(bc)) if (mt in rc) compareMedia(ctx, bc[mt], rc[mt], [...b.at, "content", mt], [...r.at, "content", mt], "response", `response ${status} (${mt})`, operation);
  const bh = isObject(b.node.headers) ? b.node.headers : {};
  const rh = isObject(r.node.headers) ? r.node.headers : {};
  const lower = (h: Record<string, unknown>) => new Map(Object.keys(h).map((k) => [k.toLowerCase(), k]));
  const bl = lower(bh);
  const rl = lower(rh);
  for (const [key, name] of bl) {
    const header = resolveAt(ctx.base.document, bh[name], [...b.at, "headers", name]);
    if (!header) continue;
    const rname = rl.get(key);
    if (rname === undefined) {
      ctx.emit(header.node.required === true ? "required-response-header-removed" : "optional-response-header-removed", `response ${status}: header ${name} removed`, { operation, base: header.at });
      continue;
    }
    const rheader = resolveAt(ctx.revision.document, rh[rname], [...r.at, "headers", rname]);
    if (!rheader) continue;
    if (header.node.required === true && rheader.node.required !== true) ctx.emit("response-header-became-optional", `response ${status}: header ${name} is no longer required`, { operation, base: header.at, revision: rheader.at });
    if (header.node.schema !== undefined && rheader.node.schema !== undefined) {
      const bs = ctx.baseSchemas.get({ value: header.node.schema, at: [...header.at, "schema"] });
      const rs = ctx.revSchemas.get({ value: rheader.node.schema, at: [...rheader.at, "schema"] });
      const show = (types: string[] | undefined, format: string | undefined) => `${types?.join("|") ?? "any"}${format ? ` (${format})` : ""}`;
      const before = show(bs.types, bs.format);
      const after = show(rs.types, rs.format);
      if (before !== after) ctx.emit("response-header-type-changed", `response ${status}: header ${name} type changed from ${before} to ${after}`, { operation, base: bs.at, revision: rs.at });
    }
  }
  for (const [key, name] of rl) if (!bl.has(key)) ctx.emit("response-header-added", `response ${status}: header ${name} added`, { operation, revision: [...r.at, "headers", name] });
}
