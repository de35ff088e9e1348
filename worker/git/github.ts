/**
 * @module The GitHub App adapter of {@link GitHost}: an app JWT (RS256, jose; RFC 7519) from `GITHUB_APP_ID` and
 * `GITHUB_APP_PRIVATE_KEY` (PKCS#8, or GitHub's PKCS#1 `.pem` converted with @peculiar/asn1-*), exchanged for an
 * installation token (`POST /app/installations/{id}/access_tokens`), then the REST calls: tarball
 * (`GET /repos/{o}/{r}/tarball/{ref}`, a 302 to the archive), check runs (`POST/PATCH /repos/{o}/{r}/check-runs`,
 * at most 50 annotations per request), issue comments, and a backlog draft's pull request (git refs, contents,
 * pulls). Every call goes through outbound.ts (SSRF rules).
 */
import { importPKCS8, SignJWT } from "jose";
import { AsnConvert, OctetString } from "@peculiar/asn1-schema";
import { PrivateKeyInfo } from "@peculiar/asn1-pkcs8";
import { AlgorithmIdentifier } from "@peculiar/asn1-x509";
import { RSAPrivateKey } from "@peculiar/asn1-rsa";
import { ANNOTATIONS_PER_REQUEST, FileExists, type CheckOutcome, type FileProposal, type GitHost, type OpenedPullRequest } from "./host";
import { OutboundError, outboundFetch, readLimited } from "./outbound";

/** The check run's name on GitHub. */
export const CHECK_NAME = "Portico";
const RSA_ENCRYPTION = "1.2.840.113549.1.1.1";

function pemBody(pem: string, label: string): Uint8Array | undefined {
  const match = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+)-----END ${label}-----`).exec(pem);
  if (!match) return undefined;
  const bin = atob(match[1].replace(/\s+/g, ""));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

/**
 * The app's private key as PKCS#8 PEM: returned as is when it is PKCS#8 already; a PKCS#1 `RSA PRIVATE KEY`
 * (what GitHub hands out) is checked to be an RSAPrivateKey (RFC 8017 A.1.2) and wrapped in a PrivateKeyInfo
 * (RFC 5208 §5). Escaped newlines (`\n` in a one-line secret) are accepted.
 * @throws Error when the text is neither.
 */
export function toPkcs8(pem: string): string {
  const text = pem.replace(/\\n/g, "\n").trim();
  if (pemBody(text, "PRIVATE KEY")) return text;
  const der = pemBody(text, "RSA PRIVATE KEY");
  if (!der) throw new Error("GITHUB_APP_PRIVATE_KEY is not a PEM private key (PKCS#8 or PKCS#1 RSA)");
  AsnConvert.parse(der, RSAPrivateKey);
  const info = new PrivateKeyInfo({ privateKeyAlgorithm: new AlgorithmIdentifier({ algorithm: RSA_ENCRYPTION, parameters: null }), privateKey: new OctetString(der) });
  const bytes = new Uint8Array(AsnConvert.serialize(info));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  const b64 = btoa(bin).replace(/(.{64})/g, "$1\n").trim();
  return `-----BEGIN PRIVATE KEY-----\n${b64}\n-----END PRIVATE KEY-----`;
}

/** An app JWT (RS256): `iss` the app id, issued 60 s in the past (clock drift), valid 9 minutes (GitHub allows 10). */
export async function appJwt(appId: string, privateKey: string, now = Math.floor(Date.now() / 1000)): Promise<string> {
  const key = await importPKCS8(toPkcs8(privateKey), "RS256");
  return new SignJWT({}).setProtectedHeader({ alg: "RS256", typ: "JWT" }).setIssuer(appId).setIssuedAt(now - 60).setExpirationTime(now + 540).sign(key);
}

type GitHubEnv = Pick<Env, "GITHUB_APP_ID" | "GITHUB_APP_PRIVATE_KEY" | "PORTICO_ENVIRONMENT" | "PORTICO_BASE_URL">;

/** GitHub (github.com or Enterprise Server) through one installation of the app. */
export class GitHubApp implements GitHost {
  private token: { value: string; expires: number } | undefined;

  constructor(
    private readonly env: GitHubEnv,
    private readonly apiUrl: string,
    private readonly repository: string,
    private readonly installationId: number,
  ) {}

  private headers(token: string, json = false): Headers {
    const h = new Headers({ accept: "application/vnd.github+json", authorization: `Bearer ${token}`, "user-agent": "Portico-Git-Sync", "x-github-api-version": "2022-11-28" });
    if (json) h.set("content-type", "application/json");
    return h;
  }

  private minting: Promise<string> | undefined;

  /** The installation token, minted once for concurrent calls and reused until a minute before it expires. */
  private async installationToken(): Promise<string> {
    if (this.token && this.token.expires > Date.now() + 60_000) return this.token.value;
    this.minting ??= this.mint().finally(() => (this.minting = undefined));
    return this.minting;
  }

  private async mint(): Promise<string> {
    const { GITHUB_APP_ID: appId, GITHUB_APP_PRIVATE_KEY: key } = this.env;
    if (!appId || !key) throw new OutboundError("the GitHub App is not configured: set GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY");
    const jwt = await appJwt(appId, key);
    const res = await outboundFetch(this.env, `${this.apiUrl}/app/installations/${this.installationId}/access_tokens`, { method: "POST", headers: this.headers(jwt) });
    if (res.status !== 201 && res.status !== 200) {
      const said = await res.text().then((t) => (JSON.parse(t) as { message?: unknown }).message, () => undefined);
      throw new OutboundError(`GitHub refused the installation token (HTTP ${res.status}${typeof said === "string" ? `: ${said.slice(0, 200)}` : ""}); check GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY and the installation id`, res.status);
    }
    const body = (await res.json()) as { token?: unknown; expires_at?: unknown };
    if (typeof body.token !== "string") throw new OutboundError("GitHub's installation token answer has no token");
    this.token = { value: body.token, expires: typeof body.expires_at === "string" ? Date.parse(body.expires_at) : Date.now() + 3_000_000 };
    return body.token;
  }

  private async send(method: string, path: string, body?: unknown): Promise<Response> {
    const token = await this.installationToken();
    return outboundFetch(this.env, `${this.apiUrl}/repos/${this.repository}${path}`, { method, headers: this.headers(token, body !== undefined), body: body === undefined ? undefined : JSON.stringify(body) });
  }

  private async call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const res = await this.send(method, path, body);
    if (res.status >= 300) throw await refused(res, `${method} ${path.split("?")[0]}`);
    return res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>);
  }

  async archive(ref: string, maxBytes: number): Promise<Uint8Array> {
    const token = await this.installationToken();
    const res = await outboundFetch(this.env, `${this.apiUrl}/repos/${this.repository}/tarball/${ref.split("/").map(encodeURIComponent).join("/")}`, { headers: this.headers(token) });
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new OutboundError(`GitHub answered the tarball of ${ref} with HTTP ${res.status}`, res.status);
    }
    return readLimited(res, maxBytes);
  }

  async startCheck(sha: string, detailsUrl?: string): Promise<string> {
    const run = await this.call("POST", "/check-runs", { name: CHECK_NAME, head_sha: sha, status: "in_progress", started_at: new Date().toISOString(), ...(detailsUrl ? { details_url: detailsUrl } : {}) });
    return String(run.id);
  }

  /** Completes the run; annotations beyond the first 50 go in further updates of 50 each (GitHub's limit). */
  async completeCheck(id: string, _sha: string, outcome: CheckOutcome): Promise<void> {
    const batches: CheckOutcome["annotations"][] = [];
    for (let i = 0; i < outcome.annotations.length; i += ANNOTATIONS_PER_REQUEST) batches.push(outcome.annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
    const output = (annotations: CheckOutcome["annotations"]) => ({ title: outcome.title, summary: outcome.summary.slice(0, 65_000), annotations });
    // Annotations first while the run is in progress, then the completing update with the last batch.
    for (const batch of batches.slice(0, -1)) await this.call("PATCH", `/check-runs/${id}`, { output: output(batch) });
    await this.call("PATCH", `/check-runs/${id}`, {
      status: "completed", conclusion: outcome.conclusion, completed_at: new Date().toISOString(), output: output(batches.at(-1) ?? []),
      ...(outcome.detailsUrl ? { details_url: outcome.detailsUrl } : {}),
    });
  }

  /**
   * The backlog draft's pull request (REST: `GET git/ref/heads/{base}`, `GET contents/{path}?ref={base}` (404 wanted),
   * `POST git/refs`, `PUT contents/{path}` without a blob sha (GitHub then refuses to replace a file), `POST pulls`);
   * a failure after the branch was made deletes it (`DELETE git/refs/heads/{branch}`).
   */
  async openPullRequest(p: FileProposal): Promise<OpenedPullRequest> {
    const base = await this.call("GET", `/git/ref/heads/${segments(p.base)}`);
    const sha = (base.object as { sha?: unknown } | undefined)?.sha;
    if (typeof sha !== "string") throw new OutboundError(`GitHub's answer for the branch ${p.base} has no commit`);
    const existing = await this.send("GET", `/contents/${segments(p.path)}?ref=${encodeURIComponent(p.base)}`);
    if (existing.status === 200) {
      await existing.body?.cancel();
      throw new FileExists(p.path, p.base);
    }
    if (existing.status !== 404) throw await refused(existing, `GET /contents/${p.path}`);
    await existing.body?.cancel();
    await this.call("POST", "/git/refs", { ref: `refs/heads/${p.branch}`, sha });
    try {
      await this.call("PUT", `/contents/${segments(p.path)}`, { message: p.commitMessage, content: base64Utf8(p.content), branch: p.branch });
      const pull = await this.call("POST", "/pulls", { title: p.title, head: p.branch, base: p.base, body: p.body, maintainer_can_modify: true });
      if (typeof pull.html_url !== "string" || typeof pull.number !== "number") throw new OutboundError("GitHub's pull request answer has no html_url or number");
      return { url: pull.html_url, number: pull.number };
    } catch (error) {
      // Nothing half-done left in the repository either: the branch goes with its commit.
      await this.call("DELETE", `/git/refs/heads/${segments(p.branch)}`).catch((e) => console.error("git: the pull request's branch could not be deleted", p.branch, e));
      throw error;
    }
  }

  async upsertComment(pullRequest: number, body: string, commentId?: string | null): Promise<string> {
    if (commentId) {
      try {
        const updated = await this.call("PATCH", `/issues/comments/${commentId}`, { body });
        return String(updated.id);
      } catch (error) {
        // Someone deleted it: write a new one.
        if (!(error instanceof OutboundError) || error.status !== 404) throw error;
      }
    }
    const created = await this.call("POST", `/issues/${pullRequest}/comments`, { body });
    return String(created.id);
  }
}

/** A ref or path with each segment percent-encoded (slashes kept, as GitHub's routes expect). */
function segments(value: string): string {
  return value.split("/").map(encodeURIComponent).join("/");
}

/** Base64 of a text's UTF-8 bytes (the contents API's `content`). */
export function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** An OutboundError for a refused call, with GitHub's own `message` when it gave one. */
async function refused(res: Response, what: string): Promise<OutboundError> {
  const said = await res.text().then((t) => (JSON.parse(t) as { message?: unknown }).message, () => undefined);
  return new OutboundError(`GitHub answered ${what} with HTTP ${res.status}${typeof said === "string" ? ` (${said.slice(0, 200)})` : ""}`, res.status);
}
