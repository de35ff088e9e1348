/**
 * @module The `HostResolver` port of the playground proxy, and its production adapter: DNS over HTTPS with
 * Cloudflare's JSON API (https://developers.cloudflare.com/1.1.1.1/encryption/dns-over-https/make-api-requests/dns-json/),
 * A and AAAA asked in parallel. The proxy refuses a name when ANY answer is a blocked address (address.ts).
 *
 * Residual risk (TOCTOU): a Worker's `fetch` resolves the name again and cannot be pinned to the address checked
 * here, so a name whose answers change between the check and the connection (DNS rebinding) could still reach an
 * address the check refused. Mitigation: answers whose TTL is under {@link MIN_TTL_SECONDS} are asked once more
 * (a cached record near its expiry comes back with a fresh TTL) and refused when still short, since rebinding needs
 * answers no cache keeps; docs/playground.md says so.
 */

/** What a name resolved to: every A and AAAA address, and the smallest TTL among them (seconds). */
export interface Resolution {
  addresses: string[];
  minTtl: number;
}

/** Resolves a host name to its addresses. Implementations throw {@link ResolveError} when they cannot answer. */
export interface HostResolver {
  resolve(name: string): Promise<Resolution>;
}

/** The resolver could not answer (unreachable, malformed answer, SERVFAIL); the proxy refuses the request. */
export class ResolveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ResolveError";
  }
}

/** Cloudflare's DNS-over-HTTPS JSON endpoint. */
export const CLOUDFLARE_DOH = "https://cloudflare-dns.com/dns-query";
/** Answers with a TTL under this many seconds are asked again once, then refused if still short (see the module note). */
export const MIN_TTL_SECONDS = 10;
/** A DoH query gives up after this long (milliseconds). */
const DOH_TIMEOUT_MS = 3_000;
/** A DoH answer larger than this is refused (bytes); real ones are a few hundred. */
const MAX_DOH_ANSWER_BYTES = 64 * 1024;

const TYPES = { A: 1, AAAA: 28 } as const;

interface DohAnswer {
  Status?: number;
  Answer?: { type?: number; TTL?: number; data?: string }[];
}

/**
 * DNS over HTTPS (JSON API). `endpoint` defaults to Cloudflare's; the tests point it at a responder on
 * 127.0.0.1. `fetcher` is the platform's `fetch`.
 */
export class DohResolver implements HostResolver {
  constructor(
    private readonly endpoint = CLOUDFLARE_DOH,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  private async query(name: string, type: keyof typeof TYPES): Promise<{ addresses: string[]; ttls: number[] }> {
    const url = new URL(this.endpoint);
    url.searchParams.set("name", name);
    url.searchParams.set("type", type);
    let res: Response;
    try {
      res = await this.fetcher(url.toString(), { headers: { accept: "application/dns-json" }, signal: AbortSignal.timeout(DOH_TIMEOUT_MS) });
    } catch (error) {
      throw new ResolveError(`DNS over HTTPS did not answer for ${name}: ${(error as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok || text.length > MAX_DOH_ANSWER_BYTES) throw new ResolveError(`DNS over HTTPS answered ${res.status} for ${name}`);
    let data: DohAnswer;
    try {
      data = JSON.parse(text) as DohAnswer;
    } catch {
      throw new ResolveError(`DNS over HTTPS answered something that is not JSON for ${name}`);
    }
    // 0 NOERROR, 3 NXDOMAIN (no addresses); anything else (SERVFAIL, REFUSED) is no answer at all.
    if (data.Status !== 0 && data.Status !== 3) throw new ResolveError(`DNS lookup of ${name} failed (status ${data.Status})`);
    const addresses: string[] = [];
    const ttls: number[] = [];
    for (const a of data.Answer ?? []) {
      if (a.type !== TYPES[type]) continue; // CNAMEs in the chain: their targets' addresses follow
      addresses.push(String(a.data ?? ""));
      ttls.push(typeof a.TTL === "number" ? a.TTL : 0);
    }
    return { addresses, ttls };
  }

  private async once(name: string): Promise<Resolution> {
    const [a, aaaa] = await Promise.all([this.query(name, "A"), this.query(name, "AAAA")]);
    const ttls = [...a.ttls, ...aaaa.ttls];
    return { addresses: [...a.addresses, ...aaaa.addresses], minTtl: ttls.length ? Math.min(...ttls) : 0 };
  }

  /** Every A and AAAA address of `name`; a short TTL is asked once more (module note). @throws ResolveError */
  async resolve(name: string): Promise<Resolution> {
    const first = await this.once(name);
    if (first.addresses.length === 0 || first.minTtl >= MIN_TTL_SECONDS) return first;
    return this.once(name);
  }
}

/**
 * Keeps answers per isolate for their TTL, at most `maxSeconds` (60) and `maxEntries` names (256, oldest out):
 * a reader trying one operation several times pays the DoH round trips once. Answers under
 * {@link MIN_TTL_SECONDS} and failures are never kept, so the rebinding check sees fresh answers.
 */
export class CachingResolver implements HostResolver {
  private readonly entries = new Map<string, { resolution: Resolution; until: number }>();

  constructor(
    private readonly inner: HostResolver,
    private readonly maxSeconds = 60,
    private readonly maxEntries = 256,
    private readonly now: () => number = () => Date.now(),
  ) {}

  async resolve(name: string): Promise<Resolution> {
    const hit = this.entries.get(name);
    if (hit && hit.until > this.now()) return hit.resolution;
    this.entries.delete(name);
    const resolution = await this.inner.resolve(name);
    if (resolution.addresses.length > 0 && resolution.minTtl >= MIN_TTL_SECONDS) {
      this.entries.set(name, { resolution, until: this.now() + Math.min(resolution.minTtl, this.maxSeconds) * 1000 });
      for (const oldest of this.entries.keys()) {
        if (this.entries.size <= this.maxEntries) break;
        this.entries.delete(oldest);
      }
    }
    return resolution;
  }
}
