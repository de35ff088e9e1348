/**
 * @module The names access settings are made of, as the API accepts them (access/policy.ts) and the dashboard's forms
 * check them before sending (workspace/dashboard-forms.ts, also bundled for the browser). Platform-free.
 */

/** An audience name, lower case: a letter or digit, then up to 63 letters, digits, `-` and `_`. */
export const AUDIENCE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** A domain name, lower case, at least two labels and a letters-only top label (RFC 1123 labels). */
export const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** An address as far as access needs it, lower case: one `@`, no spaces, RFC 5321 lengths. */
export const EMAIL = /^[^@\s<>"]{1,64}@[a-z0-9.-]{1,253}$/;
