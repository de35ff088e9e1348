/** @module Discriminator mapping and variant names (OpenAPI 3.x §4.8.25, 3.2 adds `defaultMapping`). */
import { componentName, deref, isObject, type JsonObject } from "./refs";
import type { DiscriminatorView } from "./types";

/** Mapping values may be bare component names (`Cat`) or refs (`#/components/schemas/Cat`); this returns a ref. */
export function mappingTargetRef(target: string): string {
  return target.startsWith("#") || target.includes("/") ? target : `#/components/schemas/${target}`;
}

/**
 * The discriminator as a reader needs it: the property and every value → schema pair, explicit mapping
 * first, then implicit ones (a variant's component name is its value when no mapping entry names it).
 */
export function discriminatorView(discriminator: JsonObject, variantRefs: string[]): DiscriminatorView | undefined {
  if (typeof discriminator.propertyName !== "string") return undefined;
  const mapping: DiscriminatorView["mapping"] = [];
  const covered = new Set<string>();
  if (isObject(discriminator.mapping)) {
    for (const [value, target] of Object.entries(discriminator.mapping)) {
      if (typeof target !== "string") continue;
      const ref = mappingTargetRef(target);
      mapping.push({ value, target: ref, explicit: true });
      covered.add(ref);
    }
  }
  for (const ref of variantRefs) {
    const name = componentName(ref);
    if (name && !covered.has(ref)) mapping.push({ value: name, target: ref, explicit: false });
  }
  return { propertyName: discriminator.propertyName, mapping };
}

/** A short type label for an anonymous variant (`string`, `array`, `object`). */
function typeLabel(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) return schema.type.filter((t) => t !== "null").join(" | ") || undefined;
  if (schema.properties) return "object";
  if (schema.items) return "array";
  return undefined;
}

/**
 * Names a oneOf/anyOf option: its `title`, else the discriminator value mapped to it (when only one is),
 * else its component name, else its type, else `Option n`. Names are made unique within the group (`string (2)`).
 */
export function variantNames(items: unknown[], refs: Record<string, unknown>, disc?: DiscriminatorView): string[] {
  const names = items.map((item, i) => {
    const d = deref(item, refs);
    if (isObject(d.value) && typeof d.value.title === "string" && d.value.title.trim()) return d.value.title.trim();
    if (d.ref) {
      const hits = disc?.mapping.filter((m) => m.explicit && m.target === d.ref) ?? [];
      // Several values mapping to one schema: the schema's name reads better than any one value.
      if (hits.length === 1) return hits[0].value;
      const name = componentName(d.ref);
      if (name) return name;
    }
    return typeLabel(d.value) ?? `Option ${i + 1}`;
  });
  const seen = new Map<string, number>();
  return names.map((n) => {
    const count = (seen.get(n) ?? 0) + 1;
    seen.set(n, count);
    return count === 1 ? n : `${n} (${count})`;
  });
}
