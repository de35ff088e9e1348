/** @module Check family: operations deprecated or reactivated, and their `x-sunset` dates deleted or moved earlier. */

import { sunsetOf, type DiffCheck } from "../check";

export const deprecationCheck: DiffCheck = {
  name: "deprecation and sunset",
  run(ctx) {
    for (const { base, revision, operation } of ctx.pairs) {
      const was = base.operation.deprecated === true;
      const is = revision.operation.deprecated === true;
      const where = { operation, base: base.at, revision: revision.at };
      const sunset = sunsetOf(revision.operation);
      if (!was && is) {
        if (sunset !== undefined && !Number.isNaN(sunset)) ctx.emit("endpoint-deprecated-with-sunset", `${operation.method} ${operation.path} deprecated, sunset ${String(revision.operation["x-sunset"])}`, where);
        else ctx.emit("endpoint-deprecated", `${operation.method} ${operation.path} deprecated`, where);
      } else if (was && !is) ctx.emit("endpoint-reactivated", `${operation.method} ${operation.path} is no longer deprecated`, where);
      if (was && is) {
        const before = sunsetOf(base.operation);
        if (before !== undefined && sunset === undefined) ctx.emit("sunset-deleted", `${operation.method} ${operation.path}: x-sunset deleted while it stays deprecated`, where);
        else if (before !== undefined && sunset !== undefined && sunset < before) ctx.emit("api-sunset-date-changed-too-small", `${operation.method} ${operation.path}: x-sunset moved earlier, from ${String(base.operation["x-sunset"])} to ${String(revision.operation["x-sunset"])}`, where);
      }
    }
  },
};
