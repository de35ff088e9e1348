/**
 * @module How the Try-it panel shows an answer: the meaning of its status (RFC 9110 §15, plus 429 from RFC 6585),
 * the body pretty-printed by media type, and sizes.
 */

/** What a status code means, in a few words (RFC 9110 §15; 429 RFC 6585 §4). */
const REASONS: Record<number, string> = {
  200: "OK: the request succeeded", 201: "Created: a new resource was made", 202: "Accepted: queued, not done yet",
  204: "No Content: done, nothing to return", 206: "Partial Content",
  301: "Moved Permanently", 302: "Found: temporarily elsewhere", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
  400: "Bad Request: the API refused the request as malformed", 401: "Unauthorized: credentials missing or not accepted",
  402: "Payment Required", 403: "Forbidden: credentials lack the right to do this", 404: "Not Found: nothing at this URL",
  405: "Method Not Allowed", 406: "Not Acceptable: no answer in the media type asked for", 408: "Request Timeout",
  409: "Conflict: clashes with the resource's current state", 410: "Gone", 412: "Precondition Failed", 413: "Content Too Large",
  415: "Unsupported Media Type: the body's type is not accepted", 422: "Unprocessable Content: well-formed but invalid",
  429: "Too Many Requests: rate limited, wait and retry",
  500: "Internal Server Error: the API failed", 501: "Not Implemented", 502: "Bad Gateway: an upstream of the API failed",
  503: "Service Unavailable: try again later", 504: "Gateway Timeout",
};

const CLASSES = ["", "Informational", "Success", "Redirection", "Client error: the request needs fixing", "Server error: the API failed"];

/** `201` → "Created: a new resource was made"; unknown codes fall back to their class. */
export function statusMeaning(status: number): string {
  return REASONS[status] ?? CLASSES[Math.floor(status / 100)] ?? "Unknown status";
}

/** `1234` → "1.2 KB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** How a body is shown. */
export type BodyView = { kind: "text"; text: string; lang?: "json" | "xml" } | { kind: "image"; src: string } | { kind: "download"; type: string } | { kind: "empty" };

/** Longest text body pretty-printed (characters); longer ones are shown as they came (indenting is linear, the DOM is not). */
const PRETTY_MAX = 1_000_000;

/** Indents XML by its tags (no parsing: a malformed body is shown as it came, never rejected). */
export function prettyXml(xml: string): string {
  if (xml.length > PRETTY_MAX || !/^\s*</.test(xml)) return xml;
  let depth = 0;
  return xml.replace(/>\s*</g, ">\n<").split("\n").map((line) => {
    const closing = /^<\//.test(line);
    if (closing) depth = Math.max(0, depth - 1);
    const out = "  ".repeat(depth) + line;
    if (!closing && /^<[^!?/][^>]*>$/.test(line) && !line.endsWith("/>") && !/<\/[^>]+>$/.test(line)) depth++;
    return out;
  }).join("\n");
}

/** The body as the panel shows it: JSON and XML pretty-printed, text as is, images inline, anything else a download. */
export function bodyView(body: string, encoding: "utf8" | "base64", contentType: string | undefined): BodyView {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (body === "") return { kind: "empty" };
  if (encoding === "base64") {
    // Raster and SVG images as data: URLs in <img> (an SVG in <img> runs no script); the page's CSP allows data: images.
    if (/^image\/(png|jpeg|gif|webp|avif|bmp|svg\+xml|x-icon|vnd\.microsoft\.icon)$/.test(type)) return { kind: "image", src: `data:${type};base64,${body}` };
    return { kind: "download", type: type || "application/octet-stream" };
  }
  if ((type.endsWith("/json") || type.endsWith("+json")) && body.length <= PRETTY_MAX) {
    try {
      return { kind: "text", text: JSON.stringify(JSON.parse(body), null, 2), lang: "json" };
    } catch {
      return { kind: "text", text: body };
    }
  }
  if (type.endsWith("/xml") || type.endsWith("+xml")) return { kind: "text", text: prettyXml(body), lang: "xml" };
  if (type === "image/svg+xml") return { kind: "image", src: `data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(body)))}` };
  return { kind: "text", text: body };
}

/** Bytes of a base64 body, for a download link. */
export function fromBase64(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
