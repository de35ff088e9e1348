/** @module The bearer token of a request's Authorization header (RFC 6750 §2.1), shared by the service's auth checks. */

/** The bearer token of a request, or undefined (RFC 6750 §2.1). */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+([\x21-\x7e]+)\s*$/i.exec(header ?? "");
  return match?.[1];
}
