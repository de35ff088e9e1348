/**
 * @module Input guards for the Swagger 2.0 upgrader. `@scalar/openapi-upgrader` assumes a well-formed document
 * and throws (or corrupts extension values) on shapes real files have: `null` or non-array `parameters`,
 * parameters without `in`, `x-` keys and `$ref` inside path items treated as operations, path-level
 * `parameters` written after the methods (their body parameter is then not applied to those methods).
 * Each guard removes or sets aside the offending part and records an issue; {@link restorePathItems} puts the
 * set-aside path item fields back after the upgrade.
 */

import { isObject } from "../model/pointer";
import type { BuildIssue } from "../model/types";

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch"]);

/** Path item fields kept away from the upgrader, by path. */
export type PathItemStash = Map<string, [string, unknown][]>;

/** Mutates `data` (a Swagger 2.0 document we own) into a shape the upgrader handles; returns what was set aside. */
export function guardSwagger(data: Record<string, unknown>, issues: BuildIssue[]): PathItemStash {
  const drop = (container: Record<string, unknown>, key: string, path: (string | number)[], message: string) => {
    delete container[key];
    issues.push({ severity: "error", rule: "invalid-structure", message, path });
  };
  data.swagger = "2.0";
  for (const key of ["consumes", "produces"]) {
    if (key in data && !isStringArray(data[key])) drop(data, key, [key], `\`${key}\` must be an array of media types; ignored`);
  }
  for (const key of ["definitions", "parameters", "responses", "securityDefinitions", "paths"]) {
    if (key in data && !isObject(data[key])) drop(data, key, [key], `\`${key}\` must be an object; ignored`);
  }
  if (isObject(data.parameters)) {
    for (const [name, p] of Object.entries(data.parameters)) {
      if (!isValidParameter(p)) drop(data.parameters, name, ["parameters", name], `Parameter ${JSON.stringify(name)} needs \`in\`; ignored`);
    }
  }
  for (const section of ["responses", "definitions", "securityDefinitions"]) {
    const map = data[section];
    if (isObject(map)) for (const [name, v] of Object.entries(map)) if (!isObject(v)) drop(map, name, [section, name], `${section} entry ${JSON.stringify(name)} must be an object; ignored`);
  }
  const stash: PathItemStash = new Map();
  if (!isObject(data.paths)) return stash;
  for (const [path, item] of Object.entries(data.paths)) {
    if (!isObject(item)) continue;
    const kept: Record<string, unknown> = {};
    const aside: [string, unknown][] = [];
    if ("parameters" in item) kept.parameters = guardParameters(item.parameters, ["paths", path, "parameters"], issues);
    for (const [key, value] of Object.entries(item)) {
      if (key === "parameters") continue;
      if (METHODS.has(key) && isObject(value)) kept[key] = guardOperation(value, ["paths", path, key], issues);
      else aside.push([key, value]);
    }
    data.paths[path] = kept;
    if (aside.length) stash.set(path, aside);
  }
  return stash;
}

/** Puts the fields {@link guardSwagger} set aside back into the upgraded document's path items. */
export function restorePathItems(document: Record<string, unknown>, stash: PathItemStash): void {
  if (!isObject(document.paths)) return;
  for (const [path, aside] of stash) {
    const item = document.paths[path];
    if (isObject(item)) for (const [key, value] of aside) item[key] = value;
  }
}

function guardOperation(op: Record<string, unknown>, path: (string | number)[], issues: BuildIssue[]): Record<string, unknown> {
  for (const key of ["consumes", "produces"]) {
    if (key in op && !isStringArray(op[key])) {
      delete op[key];
      issues.push({ severity: "error", rule: "invalid-structure", message: `\`${key}\` must be an array of media types; ignored`, path: [...path, key] });
    }
  }
  if ("parameters" in op) op.parameters = guardParameters(op.parameters, [...path, "parameters"], issues);
  if ("responses" in op && !isObject(op.responses)) {
    delete op.responses;
    issues.push({ severity: "error", rule: "invalid-structure", message: "`responses` must be an object; ignored", path: [...path, "responses"] });
  } else if (isObject(op.responses)) {
    for (const [code, response] of Object.entries(op.responses)) {
      if (response === null) delete op.responses[code];
    }
  }
  return op;
}

function guardParameters(value: unknown, path: (string | number)[], issues: BuildIssue[]): unknown[] {
  if (!Array.isArray(value)) {
    issues.push({ severity: "error", rule: "invalid-structure", message: "`parameters` must be an array; ignored", path });
    return [];
  }
  return value.filter((p, i) => {
    if (isValidParameter(p)) return true;
    issues.push({ severity: "error", rule: "invalid-parameter", message: "A parameter needs `in` (or a `$ref`); skipped", path: [...path, i] });
    return false;
  });
}

function isValidParameter(p: unknown): boolean {
  return isObject(p) && (typeof p.$ref === "string" || typeof p.in === "string");
}

function isStringArray(value: unknown): boolean {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}
