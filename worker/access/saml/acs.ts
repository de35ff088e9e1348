/**
 * @module The part of an assertion consumer service (SAML 2.0 Bindings §3.5, HTTP-POST) that readers' and writers'
 * sign-ins share: read the posted form within a size bound, validate its SAMLResponse (response.ts: signature,
 * issuer, audience, recipient, validity window), and check that the request it answers was started in this browser.
 * What each side does next (replay record, session, roles) stays in its route.
 */
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { readBodyLimited } from "../../http/read-body";
import { decodeSamlResponse, validateSamlResponse, type ResponseExpectations, type ValidatedAssertion } from "./response";
import { SamlError } from "./xml";

/** Largest ACS form read, in bytes (a signed response with attributes is a few KB; certificates make it more). */
export const MAX_ACS_BYTES = 256 * 1024;

/** A refusal for the route to render in its own page: HTTP status, page title, message. */
export interface AcsRefusal {
  status: 400 | 403;
  title: string;
  message: string;
}

/**
 * The validated assertion of the POST in `c`, or why it is refused: 400 without a SAMLResponse or with one that is
 * not well-formed, 403 for one that fails validation or answers a request this browser did not start (the request's
 * id is kept in the `requestCookie` cookie). Logs the refusal's code under `logLabel`, never the assertion's
 * content (NameIDs and attributes are personal data).
 * @throws ApiError 413 from readBodyLimited for a form over {@link MAX_ACS_BYTES}.
 */
export async function acceptAcsPost(
  c: Context,
  options: { idp: ResponseExpectations["idp"]; sp: ResponseExpectations["sp"]; requestCookie: string; logLabel: string; now: Date },
): Promise<{ assertion: ValidatedAssertion } | { refusal: AcsRefusal }> {
  const form = new URLSearchParams(new TextDecoder().decode(await readBodyLimited(c.req.raw, MAX_ACS_BYTES)));
  const field = form.get("SAMLResponse");
  if (!field) return { refusal: { status: 400, title: "Sign-in failed", message: "The identity provider's answer has no SAMLResponse." } };
  let assertion: ValidatedAssertion;
  try {
    assertion = validateSamlResponse(decodeSamlResponse(field), { idp: options.idp, sp: options.sp, now: options.now });
  } catch (error) {
    if (!(error instanceof SamlError)) throw error;
    console.warn(options.logLabel, "refused", error.code);
    const malformed = error.code === "encoding" || error.code.startsWith("xml-");
    return { refusal: { status: malformed ? 400 : 403, title: "Sign-in refused", message: `The identity provider's answer was refused: ${error.message}.` } };
  }
  if (getCookie(c, options.requestCookie) !== assertion.inResponseTo) {
    console.warn(options.logLabel, "refused", "request-not-this-browser");
    return { refusal: { status: 403, title: "Sign-in refused", message: "This sign-in was not started in this browser (or it started another one since). Start again from the sign-in page." } };
  }
  return { assertion };
}
