/** @module Schema view: the one resolver behind the schema viewer, the examples and the code samples. */
export type { Conflict, Constraint, DiscriminatorView, EnumValue, PropertyView, SchemaView, VariantGroup, VariantOption, ViewMode } from "./types";
export { viewSchema, hasFlag, createRepeatRegistry, createViewBudget, type RepeatRegistry, type ViewBudget, type ViewOptions } from "./build-view";
export { bodyOf } from "./shape";
export { exampleFromView, generateExample, type ExampleOptions, type GeneratedExample } from "./example";
export { mergeAllOf, type MergeResult } from "./merge-all-of";
export { deref, derefObject, lookupRef, refName, componentName, isObject, type JsonObject } from "./refs";
export { mediaTypeExample, type MediaExample } from "./media-example";
export { effectiveParameters, requestBodyOf, responsesOf, mediaTypesOf, isJsonMediaType, type ResolvedParameter } from "./operation";
