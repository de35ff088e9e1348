/** @module HTTP methods a path item can hold (kept apart from outline.ts so the page does not load `yaml`). */
export const METHODS_FOR_FORMS = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"] as const;
