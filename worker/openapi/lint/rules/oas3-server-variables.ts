/**
 * @module oas3-server-variables: a server's `{variables}` are all defined, all used, have a default listed in
 * their enum, and every substitution yields a valid URL.
 */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import type { Segment } from "../rule";
import { isObject } from "../util/is-object";

const VARIABLE_FIELDS = new Set(["enum", "default", "description", "examples"]);

/** Spectral validates the Server object first and reports one "Invalid Server Object" when it is malformed. */
function validServer(server: unknown): server is { url: string; variables?: Record<string, Record<string, unknown>> } {
  if (!isObject(server) || typeof server.url !== "string") return false;
  if (server.variables === undefined) return true;
  if (!isObject(server.variables)) return false;
  for (const variable of Object.values(server.variables)) {
    if (!isObject(variable)) return false;
    for (const [k, v] of Object.entries(variable)) {
      if (k.startsWith("x-")) continue;
      if (!VARIABLE_FIELDS.has(k)) return false;
      if (k === "enum" && !(Array.isArray(v) && v.every((e) => typeof e === "string"))) return false;
      if (k !== "enum" && typeof v !== "string") return false;
    }
  }
  return true;
}

function* substitutions(url: string, variables: [string, string[]][], i = 0): Generator<string> {
  const [name, values] = variables[i];
  const pattern = new RegExp(`{${name}}`.replace(/[\\^$*+?.()|[\]{}]/g, "\\$&"), "g");
  for (const value of values) {
    const next = url.replace(pattern, encodeURI(value));
    if (i === variables.length - 1) yield next;
    else yield* substitutions(next, variables, i + 1);
  }
}

function isValidUrl(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

export const oas3ServerVariables = defineDocumentRule({
  id: "oas3-server-variables",
  scope: "document",
  unit: true,
  severity: "error",
  description: "Server variables must be defined and valid and there must be no unused variables.",
  formats: ALL_VERSIONS,
  create: () => ({
    Server(server, ctx) {
      if (!validServer(server)) return ctx.report("Invalid Server Object");
      const at = (...rest: Segment[]) => [...ctx.path, ...rest];
      const found = (server.url.match(/{(.+?)}/g) ?? []).map((v) => v.slice(1, -1));
      const variables = server.variables;
      const defined = variables === undefined ? [] : Object.keys(variables);
      for (const name of defined) {
        if (!found.includes(name)) ctx.report(`Server's "variables" object has unused defined "${name}" url variable.`, at("variables", name));
      }
      if (found.length === 0) return;
      const missing = found.filter((v) => !defined.includes(v));
      if (missing.length > 0) ctx.report(`Not all server's variables are described with "variables" object. Missed: ${missing.join(", ")}.`, at("variables"));
      if (variables === undefined) return;
      const pairs: [string, string[]][] = [];
      for (const name of defined) {
        if (!found.includes(name)) continue;
        const variable = variables[name];
        const values = variable.enum as string[] | undefined;
        if (values !== undefined) {
          pairs.push([name, values]);
          if (variable.default !== undefined && !values.includes(variable.default as string)) {
            ctx.report(`Server Variable "${name}" has a default not listed in the enum.`, at("variables", name, "default"));
          }
        } else pairs.push([name, variable.default !== undefined ? [variable.default as string] : []]);
        if (variable.default === undefined) ctx.report(`Server Variable "${name}" has a missing default.`, at("variables", name));
      }
      if (pairs.length === 0) return;
      const invalid: string[] = [];
      for (const url of substitutions(server.url, pairs)) {
        if (isValidUrl(url)) continue;
        invalid.push(url);
        if (invalid.length === 5) break;
      }
      if (invalid.length === 5) {
        ctx.report(`At least 5 substitutions of server variables resulted in invalid URLs: ${invalid.join(", ")} and more`, at("variables"));
      } else if (invalid.length > 0) {
        ctx.report(`A few substitutions of server variables resulted in invalid URLs: ${invalid.join(", ")}`, at("variables"));
      }
    },
  }),
});
