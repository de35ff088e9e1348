/**
 * @module The identity a way in (password, magic link, JWT, SAML) hands to the session: the one shape every
 * sign-in method produces, so `worker/access/session.ts` needs to know none of them.
 */

/** How the reader signed in. */
export type SignInMethod = "password" | "magic-link" | "jwt" | "saml";

/**
 * A reader who has proved who they are. `audiences` are audience names granted by the method (the `public`
 * audience is implied and need not be listed); `variables` are per-reader values for `{{name}}` placeholders
 * (`api_key` among them when the identity carries one). `readerId` is stable per portal and method
 * (JWT `sub`, SAML NameID, the email, or `password` for the shared password).
 */
export interface ReaderIdentity {
  readerId: string;
  email?: string;
  audiences: string[];
  variables: Record<string, string>;
  method: SignInMethod;
}
