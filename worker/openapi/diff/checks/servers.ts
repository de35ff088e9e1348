/** @module Check family (ours; oasdiff has none): top-level servers added or removed, compared by URL. */

import { isObject } from "../../model/pointer";
import type { DiffCheck } from "../check";

const urls = (value: unknown): Map<string, number> => {
  const out = new Map<string, number>();
  if (Array.isArray(value)) value.forEach((s, i) => isObject(s) && typeof s.url === "string" && !out.has(s.url.replace(/\/+$/, "")) && out.set(s.url.replace(/\/+$/, ""), i));
  return out;
};

export const serversCheck: DiffCheck = {
  name: "servers",
  run(ctx) {
    const b = urls(ctx.base.document.servers);
    const r = urls(ctx.revision.document.servers);
    for (const [url, i] of b) if (!r.has(url)) ctx.emit("api-server-removed", `server ${url} removed`, { base: ["servers", i] });
    for (const [url, i] of r) if (!b.has(url)) ctx.emit("api-server-added", `server ${url} added`, { revision: ["servers", i] });
  },
};
