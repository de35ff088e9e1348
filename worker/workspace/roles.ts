/**
 * @module Member roles of an organisation (issue 32) and what each may do: one table, checked by the workspace
 * routes (`requireRole`) and read by the dashboard to hide controls a member cannot use.
 */

/** Roles from most to least powerful. */
export const ROLES = ["owner", "admin", "editor", "viewer"] as const;
/** One role. */
export type Role = (typeof ROLES)[number];

/** Whether `value` names a role. */
export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Things a member does in the workspace, each allowed to some roles. */
export const ACTIONS = {
  "org.read": ["owner", "admin", "editor", "viewer"],
  "portal.create": ["owner", "admin"],
  "members.read": ["owner", "admin", "editor", "viewer"],
  "members.manage": ["owner", "admin"],
  "tokens.read": ["owner", "admin", "editor"],
  "tokens.manage": ["owner", "admin", "editor"],
  "usage.read": ["owner", "admin", "editor", "viewer"],
  "audit.read": ["owner", "admin"],
  "billing.manage": ["owner"],
  "sso.manage": ["owner", "admin"],
} as const satisfies Record<string, readonly Role[]>;
/** One action. */
export type Action = keyof typeof ACTIONS;

/** Whether `role` may do `action`. */
export function roleAllows(role: Role, action: Action): boolean {
  return (ACTIONS[action] as readonly Role[]).includes(role);
}

/** Scopes a role may put on a token it makes: editors publish, only owners and admins hand out `manage`. */
export function scopesGrantable(role: Role): readonly string[] {
  if (role === "owner" || role === "admin") return ["publish:apis", "publish:content", "read:analytics", "manage"];
  if (role === "editor") return ["publish:apis", "publish:content", "read:analytics"];
  return [];
}
