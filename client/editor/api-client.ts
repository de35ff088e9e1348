/** @module The service API calls the editor makes, with the portal token (JSON errors `{error:{code,message}}`). */

import { concatBytes } from "../../worker/lib/read-stream";

export interface ApiSummary {
  slug: string;
  title?: string;
  liveVersion?: string | null;
  versions?: unknown[];
}

export interface PublishAnswer {
  status: number;
  unchanged?: boolean;
  version?: string;
  url?: string;
  lint?: { errors?: number; warnings?: number };
  error?: { code: string; message: string };
}

/** Thrown for non-2xx answers; `status` 401 means the token was refused. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function failure(res: Response): Promise<ApiCallError> {
  let code = "http-" + res.status;
  let message = `${res.status} ${res.statusText}`;
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    code = body.error?.code ?? code;
    message = body.error?.message ?? message;
  } catch {
    // Not JSON: keep the status line.
  }
  return new ApiCallError(res.status, code, message);
}

/** A definition arriving over the network: its first part now, the rest when it has all arrived. */
export interface DefinitionStream {
  /** The text received so far (at least `firstChars` characters, or all of it). */
  first: string;
  /**
   * The text after `first`, and the whole body's bytes (UTF-8, to hand to the lint worker without a string
   * copy on the page's thread), handed over once by `take()` (the promise outlives the load in the page's
   * state; the 13 MB it carried must not). Rejects when the connection fails midway.
   */
  rest: Promise<RestOfText>;
}

/** The rest of a streamed text: `take()` returns it once and forgets it (later calls give empty values). */
export interface RestOfText {
  take(): { text: string; bytes: ArrayBuffer };
}

function restOf(text: string, bytes: ArrayBuffer): RestOfText {
  let held: { text: string; bytes: ArrayBuffer } | undefined = { text, bytes };
  return {
    take() {
      const out = held ?? { text: "", bytes: new ArrayBuffer(0) };
      held = undefined;
      return out;
    },
  };
}

/**
 * Reads `res`'s body as UTF-8 (BOM dropped, invalid bytes replaced: what `Response.text()` does), resolving
 * once `firstChars` characters (or the whole body) have arrived; the rest is read in the background once
 * `restAfter` settles (by default after the next frame: the first part is painted first).
 */
export async function streamText(res: Response, firstChars: number, restAfter?: Promise<void>): Promise<DefinitionStream> {
  const decoder = new TextDecoder();
  const chunks: Uint8Array[] = [];
  let parts: string[] = [];
  let decoded = 0;
  if (!res.body) {
    const bytes = await res.arrayBuffer();
    return { first: decoder.decode(bytes), rest: Promise.resolve(restOf("", bytes)) };
  }
  const reader = res.body.getReader();
  const read = async (until: number, yielding = false): Promise<boolean> => {
    let since = 0;
    while (decoded < until) {
      // Buffered chunks resolve as a chain of microtasks that would keep the first part from being painted:
      // give the page a task boundary every ~1 MB.
      if (yielding && since > 1 << 20) {
        since = 0;
        await new Promise((r) => setTimeout(r, 0));
      }
      const { done, value } = await reader.read();
      if (done) {
        parts.push(decoder.decode());
        return true;
      }
      chunks.push(value);
      const part = decoder.decode(value, { stream: true });
      parts.push(part);
      decoded += part.length;
      since += part.length;
    }
    return false;
  };
  const done = await read(firstChars);
  const received = parts.join("");
  // A fast connection delivers megabytes in the first chunk: show only the first part, at the end of a line.
  const cut = received.length > firstChars ? received.indexOf("\n", firstChars) + 1 || received.length : received.length;
  const first = received.slice(0, cut);
  parts = cut < received.length ? [received.slice(cut)] : [];
  const bytes = () => {
    const all = concatBytes(chunks, chunks.reduce((n, c) => n + c.length, 0));
    chunks.length = 0;
    return all.buffer;
  };
  const finish = () => {
    const text = parts.join("");
    parts = [];
    return restOf(text, bytes());
  };
  if (done) return { first, rest: Promise.resolve(finish()) };
  const rest = (restAfter ?? afterNextFrame()).then(() => read(Infinity, true)).then(finish);
  return { first, rest };
}

/** Resolves after the next frame has been painted (the rest of a stream is read after the first part shows). */
export function afterNextFrame(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => setTimeout(resolve, 0));
    else setTimeout(resolve, 0);
  });
}

export class ApiClient {
  constructor(private readonly token: string) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.token}`, ...extra };
  }

  /** `GET /v1/apis`: the portal's APIs. */
  async listApis(): Promise<ApiSummary[]> {
    const res = await fetch("/v1/apis", { headers: this.headers() });
    if (!res.ok) throw await failure(res);
    return ((await res.json()) as { apis: ApiSummary[] }).apis;
  }

  /**
   * `GET /v1/apis/:api/definition`, streamed: resolves with the first `firstChars` characters so the Source
   * view can show them at once (GitHub's description is 13 MB), or undefined when there is no live version (404).
   * `restAfter`: see `streamText`.
   */
  async streamDefinition(api: string, firstChars: number, restAfter?: Promise<void>): Promise<DefinitionStream | undefined> {
    const res = await fetch(`/v1/apis/${encodeURIComponent(api)}/definition`, { headers: this.headers() });
    if (res.status === 404) return undefined;
    if (!res.ok) throw await failure(res);
    return streamText(res, firstChars, restAfter);
  }

  /** `POST /v1/apis/upload?api=`: publishes `text` through the upload pipeline. Never throws for HTTP errors. */
  async publish(api: string, text: string, format: "yaml" | "json"): Promise<PublishAnswer> {
    const res = await fetch(`/v1/apis/upload?api=${encodeURIComponent(api)}`, {
      method: "POST",
      headers: this.headers({ "content-type": format === "json" ? "application/json" : "application/yaml" }),
      body: text,
    });
    let body: Record<string, unknown> = {};
    try {
      body = (await res.json()) as Record<string, unknown>;
    } catch {
      body = { error: { code: "http-" + res.status, message: `${res.status} ${res.statusText}` } };
    }
    return { status: res.status, ...(body as Omit<PublishAnswer, "status">) };
  }
}

const TOKEN_KEY = (portal: string) => `portico:token:${portal}`;

/** The portal token kept for this tab (sessionStorage: gone when the tab closes). */
export function storedToken(portal: string): string | undefined {
  try {
    return sessionStorage.getItem(TOKEN_KEY(portal)) ?? undefined;
  } catch {
    return undefined;
  }
}

export function storeToken(portal: string, token: string | undefined): void {
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY(portal), token);
    else sessionStorage.removeItem(TOKEN_KEY(portal));
  } catch {
    // Storage disabled: the writer signs in again next time.
  }
}
