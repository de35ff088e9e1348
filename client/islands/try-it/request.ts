/**
 * @module Turns the Try-it panel's fields into the proxy's request (`POST {base}/playground/send`, docs/playground.md)
 * and into the HAR request the code samples print, so both show the exact same call.
 */
import { serverUrl } from "../../../worker/openapi/samples/servers";
import type { HarRequest, NameValue } from "../../../worker/openapi/samples/types";
import type { TryParam, TryScheme, TrySpec } from "../../../worker/openapi/samples/try-spec";

/** A credential the reader typed for one scheme (never stored by the panel: history keeps none). */
export interface Credential {
  /** apiKey value, bearer token. */
  value?: string;
  /** HTTP Basic. */
  user?: string;
  password?: string;
}

/** The panel's fields. */
export interface TryFields {
  server: number;
  variables: Record<string, string>;
  /** Parameter values by {@link paramKey}. */
  values: Record<string, string>;
  /** Index into `spec.security`; -1 when the operation declares none. */
  security: number;
  credentials: Record<string, Credential>;
  /** JSON/text body. */
  bodyText?: string;
  /** Form and multipart fields by name (text ones). */
  bodyFields?: Record<string, string>;
  /** Multipart file fields by name, or the whole body (`""`) for a binary body. */
  files?: Record<string, File | undefined>;
}

/** The proxy's JSON request; `auth` names an OAuth scheme whose token the Worker adds (contract-oauth.md). */
export interface SendPayload {
  api: string;
  version: string;
  operationId: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  bodyEncoding?: "utf8" | "base64";
  auth?: { scheme: string };
}

/** What one send is made of. */
export interface BuiltRequest {
  payload: SendPayload;
  har: HarRequest;
  /** The URL without credentials (apiKey query parameters removed): what the history keeps. */
  safeUrl: string;
}

/** Key of a parameter in {@link TryFields.values}. */
export function paramKey(p: Pick<TryParam, "in" | "name">): string {
  return `${p.in}:${p.name}`;
}

/** Base64 of bytes, in chunks (a 1 MiB body would overflow `String.fromCharCode(...bytes)`). */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function utf8Base64(text: string): string {
  return toBase64(new TextEncoder().encode(text));
}

/** A path segment's value, percent-encoded (RFC 3986 §3.3; OpenAPI `simple` style, arrays comma-joined). */
function fillPath(path: string, spec: TrySpec, f: TryFields): string {
  return path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const p = spec.params.find((x) => x.in === "path" && x.name === name);
    const v = p ? f.values[paramKey(p)] ?? "" : "";
    return v === "" ? whole : encodeURIComponent(v).replace(/%2C/gi, ",");
  });
}

function schemeHeaders(name: string, s: TryScheme, c: Credential | undefined, out: { headers: NameValue[]; query: NameValue[]; cookies: NameValue[]; hiddenQuery: Set<string>; oauth?: string }) {
  if (s.type === "apiKey" && s.name && s.in) {
    const value = c?.value ?? "";
    if (s.in === "header") out.headers.push({ name: s.name, value });
    else if (s.in === "query") { out.query.push({ name: s.name, value }); out.hiddenQuery.add(s.name); }
    else out.cookies.push({ name: s.name, value });
  } else if (s.type === "http" && s.scheme === "basic") {
    out.headers.push({ name: "Authorization", value: `Basic ${utf8Base64(`${c?.user ?? ""}:${c?.password ?? ""}`)}` });
  } else if (s.type === "http") {
    const label = s.scheme === "bearer" || !s.scheme ? "Bearer" : s.scheme.charAt(0).toUpperCase() + s.scheme.slice(1);
    out.headers.push({ name: "Authorization", value: `${label} ${c?.value ?? ""}` });
  } else if (s.type === "oauth2" || s.type === "openIdConnect") {
    out.oauth ??= name; // the Worker adds the token it keeps for this scheme
  }
}

/** Builds the proxy payload and the HAR for the current fields. Files are read here (hence async). */
export async function buildRequest(spec: TrySpec, f: TryFields): Promise<BuiltRequest> {
  const server = spec.servers[Math.min(f.server, spec.servers.length - 1)];
  const base = server ? serverUrl(server, f.variables) : "";
  const parts = { headers: [...spec.headers] as NameValue[], query: [] as NameValue[], cookies: [] as NameValue[], hiddenQuery: new Set<string>(), oauth: undefined as string | undefined };
  for (const p of spec.params) {
    const v = f.values[paramKey(p)] ?? "";
    if (v === "" || p.in === "path") continue;
    if (p.in === "query") {
      if (p.constraints.type === "array" && p.explode !== false) for (const item of v.split(",")) parts.query.push({ name: p.name, value: item.trim() });
      else parts.query.push({ name: p.name, value: v });
    } else if (p.in === "header") parts.headers.push({ name: p.name, value: v });
    else parts.cookies.push({ name: p.name, value: v });
  }
  const requirement = f.security >= 0 ? spec.security[f.security] ?? [] : [];
  for (const r of requirement) {
    const s = spec.schemes[r.scheme];
    if (s) schemeHeaders(r.scheme, s, f.credentials[r.scheme], parts);
  }
  const harHeaders = [...parts.headers];
  if (parts.oauth) harHeaders.push({ name: "Authorization", value: "Bearer YOUR_TOKEN" });
  if (parts.cookies.length > 0) {
    const cookie = { name: "Cookie", value: parts.cookies.map((c) => `${c.name}=${c.value}`).join("; ") };
    parts.headers.push(cookie);
    harHeaders.push(cookie);
  }

  let body: string | undefined;
  let bodyEncoding: "utf8" | "base64" | undefined;
  let postData: HarRequest["postData"];
  const b = spec.body;
  if (b && spec.method !== "GET" && spec.method !== "HEAD") {
    if ((b.kind === "json" || b.kind === "text") && (f.bodyText ?? "") !== "") {
      body = f.bodyText!;
      bodyEncoding = "utf8";
      postData = { mimeType: b.mediaType, text: body };
      parts.headers.push({ name: "Content-Type", value: b.mediaType });
    } else if (b.kind === "form") {
      const entries = Object.entries(f.bodyFields ?? {}).filter(([, v]) => v !== "");
      body = new URLSearchParams(entries).toString();
      bodyEncoding = "utf8";
      postData = { mimeType: b.mediaType, params: entries.map(([name, value]) => ({ name, value })) };
      parts.headers.push({ name: "Content-Type", value: b.mediaType });
    } else if (b.kind === "multipart") {
      const form = new FormData();
      const params: NonNullable<HarRequest["postData"]>["params"] = [];
      for (const [name, value] of Object.entries(f.bodyFields ?? {})) if (value !== "") { form.append(name, value); params.push({ name, value }); }
      for (const [name, file] of Object.entries(f.files ?? {})) if (name !== "" && file) { form.append(name, file, file.name); params.push({ name, fileName: file.name, contentType: file.type || "application/octet-stream" }); }
      // The browser writes the multipart body and its boundary; the proxy sends those bytes as they are.
      const encoded = new Response(form);
      body = toBase64(new Uint8Array(await encoded.arrayBuffer()));
      bodyEncoding = "base64";
      postData = { mimeType: b.mediaType, params };
      parts.headers.push({ name: "Content-Type", value: encoded.headers.get("content-type") ?? b.mediaType });
    } else if (b.kind === "binary" && f.files?.[""]) {
      const file = f.files[""]!;
      body = toBase64(new Uint8Array(await file.arrayBuffer()));
      bodyEncoding = "base64";
      postData = { mimeType: b.mediaType, text: `@${file.name}` };
      parts.headers.push({ name: "Content-Type", value: b.mediaType });
    }
  }
  const path = fillPath(spec.path, spec, f);
  const qs = parts.query.length > 0 ? `?${new URLSearchParams(parts.query.map((q) => [q.name, q.value])).toString()}` : "";
  const safe = parts.query.filter((q) => !parts.hiddenQuery.has(q.name));
  const safeQs = safe.length > 0 ? `?${new URLSearchParams(safe.map((q) => [q.name, q.value])).toString()}` : "";
  const headers: Record<string, string> = {};
  for (const h of parts.headers) headers[h.name] = headers[h.name] !== undefined ? `${headers[h.name]}, ${h.value}` : h.value;
  const payload: SendPayload = { api: spec.api, version: spec.version, operationId: spec.operationId, method: spec.method, url: base + path + qs, headers };
  if (body !== undefined) { payload.body = body; payload.bodyEncoding = bodyEncoding; }
  if (parts.oauth) payload.auth = { scheme: parts.oauth };
  if (postData && !harHeaders.some((h) => h.name.toLowerCase() === "content-type")) harHeaders.push({ name: "Content-Type", value: postData.mimeType });
  const har: HarRequest = { method: spec.method, url: base + path, httpVersion: "HTTP/1.1", headers: harHeaders, queryString: parts.query, cookies: [], headersSize: -1, bodySize: -1 };
  if (postData) har.postData = postData;
  return { payload, har, safeUrl: base + path + safeQs };
}
