/** @module The service API calls the editor makes, with the portal token (JSON errors `{error:{code,message}}`). */

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

  /** `GET /v1/apis/:api/definition`: the live version's raw text, or undefined when there is none (404). */
  async liveDefinition(api: string): Promise<string | undefined> {
    const res = await fetch(`/v1/apis/${encodeURIComponent(api)}/definition`, { headers: this.headers() });
    if (res.status === 404) return undefined;
    if (!res.ok) throw await failure(res);
    return res.text();
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
