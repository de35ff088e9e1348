/**
 * @module Token scopes (issue 32) and the scope each `/v1` route of a portal token needs. One table, read by
 * `requirePortal` (worker/middleware/auth.ts) on every token call; a route missing from it needs `manage`, so a
 * route added later is closed until it is listed. docs/workspace.md lists the same table for people.
 */
import type { Feature } from "./plans";

/** Scopes a portal token may carry. `manage` includes every other scope. */
export const SCOPES = ["publish:apis", "publish:content", "read:analytics", "manage"] as const;
/** One scope. */
export type Scope = (typeof SCOPES)[number];

/** Whether `value` names a scope. */
export function isScope(value: unknown): value is Scope {
  return typeof value === "string" && (SCOPES as readonly string[]).includes(value);
}

/**
 * One rule: requests whose method is in `methods` (or any, when absent) and path matches `path` need `scope`, and,
 * for a portal owned by an organisation, a plan with `feature` (worker/workspace/plans.ts).
 */
export interface ScopeRule {
  methods?: readonly string[];
  path: RegExp;
  /** `any`: every valid token may call it (reading the portal's own settings). */
  scope: Scope | "any";
  feature?: Feature;
}

/** First match wins; the order goes from the specific to the general. */
export const SCOPE_RULES: readonly ScopeRule[] = [
  { methods: ["GET", "HEAD"], path: /^\/v1\/portal$/, scope: "any" },
  { methods: ["PUT"], path: /^\/v1\/portal\/domain$/, scope: "manage", feature: "custom-domain" },
  { methods: ["PUT"], path: /^\/v1\/portal\/sso$/, scope: "manage", feature: "saml" },
  // Opening a backlog draft as a pull request writes to the content repository: a content writer's scope.
  { methods: ["POST"], path: /^\/v1\/analytics\/backlog\/drafts\/[^/]+\/pull-request$/, scope: "publish:content", feature: "search-analytics" },
  { path: /^\/v1\/analytics(\/|$)/, scope: "read:analytics", feature: "search-analytics" },
  { path: /^\/v1\/apis(\/|$)/, scope: "publish:apis" },
  { path: /^\/v1\/content(\/|$)/, scope: "publish:content" },
  { path: /^\/v1\/portal(\/|$)/, scope: "manage" },
];

/** What a token call needs: the first matching rule's scope and feature, else `manage` alone. */
export function routeNeeds(method: string, path: string): { scope: Scope | "any"; feature?: Feature } {
  for (const rule of SCOPE_RULES) {
    if (rule.methods && !rule.methods.includes(method)) continue;
    if (rule.path.test(path)) return rule.feature ? { scope: rule.scope, feature: rule.feature } : { scope: rule.scope };
  }
  return { scope: "manage" };
}

/** Whether a token with `held` scopes may make a call needing `needed`. */
export function scopesAllow(held: readonly string[], needed: Scope | "any"): boolean {
  return needed === "any" || held.includes("manage") || held.includes(needed);
}

/** Reads the stored JSON array of scopes; anything unreadable holds no scope. */
export function parseScopes(json: string | null | undefined): Scope[] {
  try {
    const parsed: unknown = JSON.parse(json ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isScope) : [];
  } catch {
    return [];
  }
}
