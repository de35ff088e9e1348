/**
 * @module Check family: parameters (path item and operation parameters merged, operation ones winning). A parameter
 * is identified by `in` and name (header names case-insensitively); a path parameter by its position in the path
 * template, so renaming `{id}` to `{petId}` changes nothing. Then requiredness, deprecation, location and schema.
 */

import { isObject } from "../../model/pointer";
import type { PathSegment } from "../../model/pointer";
import { sunsetOf, type DiffCheck } from "../check";
import type { DiffContext } from "../context";
import type { OperationEntry } from "../operations";
import { resolveAt } from "../resolve";
import type { SchemaRef } from "../schema/normalize";

interface Param {
  key: string;
  name: string;
  in: string;
  node: Record<string, unknown>;
  at: PathSegment[];
  schema?: SchemaRef;
  /** Declared on the path item (shared by its operations) rather than on the operation. */
  pathLevel: boolean;
}

function effectiveParameters(document: unknown, op: OperationEntry): Map<string, Param> {
  const out = new Map<string, Param>();
  const names = [...op.change.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const add = (list: unknown, at: PathSegment[], pathLevel: boolean) => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, i) => {
      const located = resolveAt(document, raw, [...at, i]);
      if (!located) return;
      const p = located.node;
      if (typeof p.name !== "string" || typeof p.in !== "string") return;
      const position = p.in === "path" ? names.indexOf(p.name) : -1;
      const key = position >= 0 ? `path#${position}` : `${p.in}:${p.in === "header" ? p.name.toLowerCase() : p.name}`;
      let schema: SchemaRef | undefined;
      if (p.schema !== undefined) schema = { value: p.schema, at: [...located.at, "schema"] };
      else if (isObject(p.content)) {
        const [mediaType, media] = Object.entries(p.content)[0] ?? [];
        if (mediaType !== undefined && isObject(media) && media.schema !== undefined) schema = { value: media.schema, at: [...located.at, "content", mediaType, "schema"] };
      }
      out.set(key, { key, name: p.name, in: p.in, node: p, at: located.at, pathLevel, ...(schema ? { schema } : {}) });
    });
  };
  add(op.pathItem.parameters, [...op.pathAt, "parameters"], true);
  add(op.operation.parameters, [...op.at, "parameters"], false);
  return out;
}

const required = (p: Param) => p.in === "path" || p.node.required === true;

export const parametersCheck: DiffCheck = {
  name: "parameters",
  run(ctx: DiffContext) {
    for (const { base, revision, operation } of ctx.pairs) {
      const bp = effectiveParameters(ctx.base.document, base);
      const rp = effectiveParameters(ctx.revision.document, revision);
      const removed = [...bp.values()].filter((p) => !rp.has(p.key));
      const added = [...rp.values()].filter((p) => !bp.has(p.key));
      // Same name, other location: one "moved" change rather than a removal and an addition.
      for (const b of [...removed]) {
        const r = added.find((a) => a.name.toLowerCase() === b.name.toLowerCase() && a.in !== b.in);
        if (!r) continue;
        removed.splice(removed.indexOf(b), 1);
        added.splice(added.indexOf(r), 1);
        ctx.emit("request-parameter-in-changed", `parameter ${b.name} moved from ${b.in} to ${r.in}`, { operation, base: b.at, revision: r.at });
      }
      for (const b of removed) {
        const where = { operation, base: b.at };
        let id = "request-parameter-removed";
        if (b.node.deprecated === true) {
          const sunset = sunsetOf(b.node);
          id = sunset !== undefined && Number.isNaN(sunset) ? "request-parameter-sunset-parse" : sunset !== undefined && sunset > ctx.now ? "request-parameter-removed-before-sunset" : "request-parameter-removed-with-deprecation";
        }
        ctx.emit(id, `${b.in} parameter ${b.name} removed`, where);
      }
      for (const r of added) {
        const req = required(r);
        // oasdiff names a parameter added to an existing path item (shared by its operations) apart.
        const id = r.pathLevel ? `new-${req ? "required" : "optional"}-request-default-parameter-to-existing-path` : `new-${req ? "required" : "optional"}-request-parameter`;
        ctx.emit(id, `${req ? "required" : "optional"} ${r.in} parameter ${r.name} added${r.pathLevel ? " to the path" : ""}`, { operation, revision: r.at });
      }
      for (const b of bp.values()) {
        const r = rp.get(b.key);
        if (!r) continue;
        const where = { operation, base: b.at, revision: r.at };
        const label = `${r.in} parameter ${r.name}`;
        if (required(b) !== required(r)) ctx.emit(required(r) ? "request-parameter-became-required" : "request-parameter-became-optional", `${label} became ${required(r) ? "required" : "optional"}`, where);
        const bd = b.node.deprecated === true;
        const rd = r.node.deprecated === true;
        if (bd !== rd) ctx.emit(rd ? "request-parameter-deprecated" : "request-parameter-reactivated", `${label} ${rd ? "deprecated" : "no longer deprecated"}`, where);
        if (b.schema && r.schema) ctx.compareSchemas(b.schema, r.schema, { direction: "request", root: "parameter", label, operation });
      }
    }
  },
};
