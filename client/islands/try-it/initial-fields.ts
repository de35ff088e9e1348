/**
 * @module What the Try-it panel starts with: every parameter's prefilled value, the server, and the security
 * requirement with its credentials. The requirement is the first one the reader can send at once (issue 38: the
 * demo pre-selected its OAuth scheme with no token, so a newcomer's first Send was the Worker's 401 `no-token`).
 */
import type { TryScheme, TrySpec } from "../../../worker/openapi/samples/try-spec";
import { paramKey, type TryFields } from "./request";

const LOOPBACK = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/;

/** The server a local portal (`local`: served from a loopback host) starts with: its first loopback one, or -1. */
export function localMockServer(spec: TrySpec, local: boolean): number {
  return local ? spec.servers.findIndex((s) => LOOPBACK.test(s.url)) : -1;
}

/**
 * What the panel fills in for a local mock's apiKey and bearer schemes (and `user:password` of a basic one). Any
 * value passes: prism, the demo's Local mock, checks that a credential is present, not what it is
 * (@stoplight/prism-http `validator/validators/security/handlers`).
 */
export const LOCAL_MOCK_CREDENTIAL = "local-mock";

/** What the reader can use without typing anything, besides the spec's own API key. */
export interface ReadyCredentials {
  /** The server chosen is a local mock (a loopback server on a portal served from a loopback host). */
  mock: boolean;
  /** OAuth and OpenID Connect schemes the Worker already holds a token for (`GET …/oauth/state`). */
  authorized?: ReadonlySet<string>;
}

const isOAuth = (s: TryScheme | undefined) => s?.type === "oauth2" || s?.type === "openIdConnect";
const isBearer = (s: TryScheme | undefined) => s?.type === "http" && s.scheme === "bearer";
const isBasic = (s: TryScheme | undefined) => s?.type === "http" && s.scheme === "basic";

/**
 * The requirement pre-selected (an index into `spec.security`; -1 when there are none), the first of: with the
 * reader's API key, one of apiKey schemes only, else of apiKey and bearer schemes (the code samples put the key in
 * both); one of OAuth schemes already authorized; no authorization, when the operation allows it; on a local mock,
 * one of apiKey schemes only, else of apiKey, bearer and basic schemes (filled by {@link initialFields}); else the
 * first the panel can fill (no unknown or mutual TLS scheme); else the first.
 */
export function preferredSecurity(spec: TrySpec, ready: ReadyCredentials = { mock: false }): number {
  if (spec.security.length === 0) return -1;
  const only = (ok: (s: TryScheme | undefined) => boolean) => spec.security.findIndex((req) => req.length > 0 && req.every((r) => ok(spec.schemes[r.scheme])));
  const first = (...tries: (() => number)[]) => tries.reduce((found, next) => (found >= 0 ? found : next()), -1);
  const usable = (s: TryScheme | undefined) => s !== undefined && s.type !== "unknown" && s.type !== "mutualTLS";
  const i = first(
    () => (spec.apiKey ? only((s) => s?.type === "apiKey") : -1),
    () => (spec.apiKey ? only((s) => s?.type === "apiKey" || isBearer(s)) : -1),
    () => (ready.authorized?.size ? spec.security.findIndex((req) => req.length > 0 && req.every((r) => isOAuth(spec.schemes[r.scheme]) && ready.authorized!.has(r.scheme))) : -1),
    () => spec.security.findIndex((req) => req.length === 0),
    () => (ready.mock ? only((s) => s?.type === "apiKey") : -1),
    () => (ready.mock ? only((s) => s?.type === "apiKey" || isBearer(s) || isBasic(s)) : -1),
    () => spec.security.findIndex((req) => req.every((r) => usable(spec.schemes[r.scheme]))),
  );
  return i >= 0 ? i : 0;
}

/**
 * The fields a spec starts with: its prefilled values, the first server (on a portal served from a loopback host,
 * `local`, the first loopback server: a local demo's mock), the {@link preferredSecurity} requirement, and the
 * credentials ready for it: the reader's API key in apiKey and bearer schemes, else on a local mock
 * {@link LOCAL_MOCK_CREDENTIAL} in apiKey, bearer and basic schemes.
 */
export function initialFields(spec: TrySpec, local = false): TryFields {
  const values: Record<string, string> = {};
  for (const p of spec.params) values[paramKey(p)] = p.value;
  const loopback = localMockServer(spec, local);
  const mock = loopback >= 0;
  const fields: TryFields = { server: Math.max(0, loopback), variables: {}, values, security: preferredSecurity(spec, { mock }), credentials: {} };
  if (spec.body?.text !== undefined) fields.bodyText = spec.body.kind === "json" ? prettyJson(spec.body.text) : spec.body.text;
  if (spec.body?.fields) fields.bodyFields = Object.fromEntries(spec.body.fields.filter((f) => !f.file).map((f) => [f.name, f.value]));
  const key = spec.apiKey ?? (mock ? LOCAL_MOCK_CREDENTIAL : undefined);
  for (const [name, s] of Object.entries(spec.schemes)) {
    if (key && (s.type === "apiKey" || isBearer(s))) fields.credentials[name] = { value: key };
    else if (mock && isBasic(s)) fields.credentials[name] = { user: LOCAL_MOCK_CREDENTIAL, password: LOCAL_MOCK_CREDENTIAL };
  }
  return fields;
}

/** JSON text indented for the editor (the sample's text is compact); text that does not parse stays as it is. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
