/**
 * @module A JSON Schema 2020-12 interpreter that reports errors the way ajv does with `allErrors` and
 * `ajv-errors` (keyword, instance path, params, message, `errorMessage` replacement), because Spectral's
 * oas2-schema / oas3-schema messages are built from exactly those. No code generation: it runs in Workers.
 * Used for document structure only; examples go through @cfworker/json-schema (see ../examples).
 * @see https://json-schema.org/draft/2020-12/json-schema-core, https://github.com/ajv-validator/ajv-errors
 */

import type { Segment } from "../rule";
import { deepEqual } from "../util/deep-equal";
import { applyErrorMessage } from "./error-message";
import { checkNumber, checkString, hasType, regex, toPath, type PathNode } from "./keywords";
import type { SchemaError } from "./schema-error";
import type { Resource, Schema, SchemaObject, SchemaSet } from "./schema-set";

export type { SchemaError } from "./schema-error";



/** Property names evaluated at one instance location (for unevaluatedProperties); null when not tracked. */
type Evaluated = Set<string> | null;

export class SchemaValidator {
  private errors: SchemaError[] = [];
  private scope: Resource[] = [];
  private base: readonly Segment[] = [];
  /** Props evaluated by the last `validate` call that was asked to track them. */
  private evaluated: Evaluated = null;

  constructor(private readonly set: SchemaSet) {}

  /** Validates `instance` against `schema`; errors carry paths prefixed with `base`. */
  validate(schema: Schema, instance: unknown, base: readonly Segment[] = [], skip: ReadonlySet<object> = new Set()): SchemaError[] {
    this.skip = skip;
    this.errors = [];
    this.scope = [];
    this.base = base;
    this.v(schema, instance, null, false);
    return this.errors;
  }

  private error(data: unknown, schema: SchemaObject | boolean, keyword: string, path: PathNode | null, message: string, params: Record<string, unknown> = {}): void {
    this.errors.push({ keyword, instancePath: toPath(path, this.base), params, message, schema, data });
  }

  /** Instance values the caller validates separately: treated as valid here. */
  private skip: ReadonlySet<object> = new Set();

  private v(schema: Schema, inst: unknown, path: PathNode | null, track: boolean): boolean {
    if (typeof inst === "object" && inst !== null && path !== null && this.skip.has(inst)) {
      if (track) this.evaluated = null;
      return true;
    }
    if (schema === true) {
      if (track) this.evaluated = null;
      return true;
    }
    if (schema === false) {
      this.error(inst, false, "false schema", path, "boolean schema is false");
      if (track) this.evaluated = null;
      return false;
    }
    const s = schema;
    const resource = this.set.resourceOf(s);
    const entered = resource !== undefined && resource !== this.scope[this.scope.length - 1];
    if (entered) this.scope.push(resource);
    const start = this.errors.length;
    const isObj = typeof inst === "object" && inst !== null && !Array.isArray(inst);
    const tracking = track || (isObj && s.unevaluatedProperties !== undefined);
    const evaluated: Evaluated = tracking ? new Set() : null;
    let valid = true;

    if (typeof s.$ref === "string") valid = this.ref(s.$ref, resource, inst, path, evaluated) && valid;
    if (typeof s.$dynamicRef === "string") valid = this.dynamicRef(s.$dynamicRef, resource, inst, path, evaluated) && valid;

    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? s.type : [s.type];
      if (!types.some((t) => hasType(inst, t))) {
        valid = false;
        this.error(inst, s, "type", path, `must be ${types.join(",")}`, { type: s.type });
      }
    }
    if (Array.isArray(s.enum) && !s.enum.some((e) => deepEqual(e, inst))) {
      valid = false;
      this.error(inst, s, "enum", path, "must be equal to one of the allowed values", { allowedValues: s.enum });
    }
    if ("const" in s && !deepEqual(s.const, inst)) {
      valid = false;
      this.error(inst, s, "const", path, "must be equal to constant", { allowedValue: s.const });
    }
    if (s.not !== undefined) {
      const mark = this.errors.length;
      const ok = this.v(s.not as Schema, inst, path, false);
      this.errors.length = mark;
      if (ok) {
        valid = false;
        this.error(inst, s, "not", path, "must NOT be valid");
      }
    }
    if (Array.isArray(s.allOf)) {
      for (const branch of s.allOf) {
        valid = this.v(branch as Schema, inst, path, tracking) && valid;
        this.absorb(evaluated);
      }
    }
    if (Array.isArray(s.anyOf)) {
      const mark = this.errors.length;
      let any = false;
      for (const branch of s.anyOf) {
        if (!this.v(branch as Schema, inst, path, tracking)) continue;
        any = true;
        this.absorb(evaluated);
      }
      if (any) this.errors.length = mark;
      else {
        valid = false;
        this.error(inst, s, "anyOf", path, "must match a schema in anyOf");
      }
    }
    if (Array.isArray(s.oneOf)) {
      const mark = this.errors.length;
      const passing: number[] = [];
      s.oneOf.forEach((branch, i) => {
        if (!this.v(branch as Schema, inst, path, tracking)) return;
        passing.push(i);
        this.absorb(evaluated);
      });
      if (passing.length === 1) this.errors.length = mark;
      else {
        valid = false;
        if (passing.length > 1) this.errors.length = mark;
        this.error(inst, s, "oneOf", path, "must match exactly one schema in oneOf", { passingSchemas: passing.length > 1 ? passing : null });
      }
    }
    if (s.if !== undefined && (s.then !== undefined || s.else !== undefined)) {
      const mark = this.errors.length;
      const cond = this.v(s.if as Schema, inst, path, tracking);
      this.errors.length = mark;
      const branch = cond ? "then" : "else";
      if (cond) this.absorb(evaluated);
      if (s[branch] !== undefined) {
        // A failing branch's evaluated properties do not count (ajv), so unevaluatedProperties reports them too.
        if (this.v(s[branch] as Schema, inst, path, tracking)) this.absorb(evaluated);
        else {
          valid = false;
          this.error(inst, s, "if", path, `must match "${branch}" schema`, { failingKeyword: branch });
        }
      }
    }

    if (isObj) valid = this.object(s, inst as Record<string, unknown>, path, evaluated) && valid;
    else if (Array.isArray(inst)) valid = this.array(s, inst, path) && valid;
    else if (typeof inst === "string") valid = this.string(s, inst, path) && valid;
    else if (typeof inst === "number") valid = this.number(s, inst, path) && valid;

    if (s.errorMessage !== undefined && this.errors.length > start) applyErrorMessage(this.errors, start, s, toPath(path, this.base));
    if (entered) this.scope.pop();
    this.evaluated = evaluated;
    return valid;
  }

  /** Copies the last call's evaluated properties into `target` (when tracking). */
  private absorb(target: Evaluated): void {
    const more = this.evaluated;
    if (target && more) for (const k of more) target.add(k);
  }

  private ref(ref: string, from: Resource | undefined, inst: unknown, path: PathNode | null, evaluated: Evaluated): boolean {
    const target = from ? this.set.resolve(ref, from) : undefined;
    if (target === undefined) return true; // an unknown reference in our own schemas is not the document's fault
    return this.follow(target, inst, path, evaluated);
  }

  private dynamicRef(ref: string, from: Resource | undefined, inst: unknown, path: PathNode | null, evaluated: Evaluated): boolean {
    let target = from ? this.set.resolve(ref, from) : undefined;
    const anchor = ref.startsWith("#") ? ref.slice(1) : undefined;
    if (anchor && typeof target === "object" && target.$dynamicAnchor === anchor) {
      // The outermost resource in the dynamic scope that declares the anchor wins.
      for (const r of this.scope) {
        const found = r.dynamicAnchors.get(anchor);
        if (found !== undefined) {
          target = found;
          break;
        }
      }
    }
    if (target === undefined) return true;
    return this.follow(target, inst, path, evaluated);
  }

  private follow(target: Schema, inst: unknown, path: PathNode | null, evaluated: Evaluated): boolean {
    const ok = this.v(target, inst, path, evaluated !== null);
    this.absorb(evaluated);
    return ok;
  }

  private object(s: SchemaObject, inst: Record<string, unknown>, path: PathNode | null, evaluated: Evaluated): boolean {
    let valid = true;
    const keys = Object.keys(inst);
    if (Array.isArray(s.required)) {
      for (const p of s.required) {
        if (typeof p === "string" && !Object.prototype.hasOwnProperty.call(inst, p)) {
          valid = false;
          this.error(inst, s, "required", path, `must have required property '${p}'`, { missingProperty: p });
        }
      }
    }
    if (typeof s.minProperties === "number" && keys.length < s.minProperties) {
      valid = false;
      this.error(inst, s, "minProperties", path, `must NOT have fewer than ${s.minProperties} properties`, { limit: s.minProperties });
    }
    if (typeof s.maxProperties === "number" && keys.length > s.maxProperties) {
      valid = false;
      this.error(inst, s, "maxProperties", path, `must NOT have more than ${s.maxProperties} properties`, { limit: s.maxProperties });
    }
    if (s.dependentRequired && typeof s.dependentRequired === "object") {
      for (const [prop, deps] of Object.entries(s.dependentRequired as Record<string, unknown>)) {
        if (!(prop in inst) || !Array.isArray(deps)) continue;
        const missing = deps.filter((d) => typeof d === "string" && !(d in inst));
        if (missing.length) {
          valid = false;
          this.error(inst, s, "dependentRequired", path, `must have property ${missing.join(", ")} when property ${prop} is present`, { property: prop, missingProperty: missing.join(", ") });
        }
      }
    }
    if (s.propertyNames !== undefined) {
      for (const key of keys) {
        const mark = this.errors.length;
        if (!this.v(s.propertyNames as Schema, key, path, false)) {
          for (let i = mark; i < this.errors.length; i++) this.errors[i].params.propertyName = key;
          valid = false;
          this.error(inst, s, "propertyNames", path, "property name must be valid", { propertyName: key });
        }
      }
    }
    const props = s.properties && typeof s.properties === "object" ? (s.properties as Record<string, Schema>) : undefined;
    const patterns = s.patternProperties && typeof s.patternProperties === "object" ? Object.entries(s.patternProperties as Record<string, Schema>) : [];
    const additional = s.additionalProperties;
    if (props || patterns.length || additional !== undefined) {
      for (const key of keys) {
        let matched = false;
        if (props && Object.prototype.hasOwnProperty.call(props, key)) {
          matched = true;
          valid = this.v(props[key], inst[key], { parent: path, key }, false) && valid;
        }
        for (const [pattern, schema] of patterns) {
          if (regex(pattern)?.test(key)) {
            matched = true;
            valid = this.v(schema, inst[key], { parent: path, key }, false) && valid;
          }
        }
        if (matched) {
          evaluated?.add(key);
          continue;
        }
        if (additional === undefined) continue;
        evaluated?.add(key);
        if (additional === false) {
          valid = false;
          this.error(inst, s, "additionalProperties", path, "must NOT have additional properties", { additionalProperty: key });
        } else valid = this.v(additional as Schema, inst[key], { parent: path, key }, false) && valid;
      }
    }
    if (s.dependentSchemas && typeof s.dependentSchemas === "object") {
      for (const [prop, schema] of Object.entries(s.dependentSchemas as Record<string, Schema>)) {
        if (!(prop in inst)) continue;
        valid = this.v(schema, inst, path, evaluated !== null) && valid;
        this.absorb(evaluated);
      }
    }
    if (s.unevaluatedProperties !== undefined) {
      for (const key of keys) {
        if (evaluated?.has(key)) continue;
        if (s.unevaluatedProperties === false) {
          valid = false;
          this.error(inst, s, "unevaluatedProperties", path, "must NOT have unevaluated properties", { unevaluatedProperty: key });
        } else valid = this.v(s.unevaluatedProperties as Schema, inst[key], { parent: path, key }, false) && valid;
      }
    }
    return valid;
  }

  private array(s: SchemaObject, inst: unknown[], path: PathNode | null): boolean {
    let valid = true;
    if (typeof s.minItems === "number" && inst.length < s.minItems) {
      valid = false;
      this.error(inst, s, "minItems", path, `must NOT have fewer than ${s.minItems} items`, { limit: s.minItems });
    }
    if (typeof s.maxItems === "number" && inst.length > s.maxItems) {
      valid = false;
      this.error(inst, s, "maxItems", path, `must NOT have more than ${s.maxItems} items`, { limit: s.maxItems });
    }
    if (s.uniqueItems === true) {
      outer: for (let i = inst.length - 1; i > 0; i--) {
        for (let j = i - 1; j >= 0; j--) {
          if (deepEqual(inst[i], inst[j])) {
            valid = false;
            this.error(inst, s, "uniqueItems", path, `must NOT have duplicate items (items ## ${j} and ${i} are identical)`, { i, j });
            break outer;
          }
        }
      }
    }
    let from = 0;
    if (Array.isArray(s.prefixItems)) {
      from = s.prefixItems.length;
      s.prefixItems.forEach((schema, i) => {
        if (i < inst.length) valid = this.v(schema as Schema, inst[i], { parent: path, key: i }, false) && valid;
      });
    }
    if (Array.isArray(s.items)) {
      // Draft-04 tuple form, kept by the 2.0 schema's references.
      s.items.forEach((schema, i) => {
        if (i < inst.length) valid = this.v(schema as Schema, inst[i], { parent: path, key: i }, false) && valid;
      });
    } else if (s.items !== undefined) {
      for (let i = from; i < inst.length; i++) valid = this.v(s.items as Schema, inst[i], { parent: path, key: i }, false) && valid;
    }
    if (s.contains !== undefined) {
      const mark = this.errors.length;
      let count = 0;
      for (let i = 0; i < inst.length; i++) if (this.v(s.contains as Schema, inst[i], { parent: path, key: i }, false)) count++;
      this.errors.length = mark;
      const min = typeof s.minContains === "number" ? s.minContains : 1;
      if (count < min) {
        valid = false;
        this.error(inst, s, "contains", path, `must contain at least ${min} valid item(s)`, { minContains: min });
      } else if (typeof s.maxContains === "number" && count > s.maxContains) {
        valid = false;
        this.error(inst, s, "contains", path, `must contain at most ${s.maxContains} valid item(s)`, { maxContains: s.maxContains });
      }
    }
    return valid;
  }

  private string(s: SchemaObject, inst: string, path: PathNode | null): boolean {
    return checkString(s, inst, (keyword, message, params) => this.error(inst, s, keyword, path, message, params));
  }

  private number(s: SchemaObject, inst: number, path: PathNode | null): boolean {
    return checkNumber(s, inst, (keyword, message, params) => this.error(inst, s, keyword, path, message, params));
  }

}
