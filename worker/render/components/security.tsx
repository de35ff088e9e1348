/** @module Security: every scheme in full (index page) and, per operation, which schemes and scopes it needs. */
import { isObject } from "../../openapi/schema-view/refs";
import { H } from "./heading";
import { Markdown } from "./markdown";
import { SafeLink } from "./safe-link";

type Schemes = Record<string, Record<string, unknown>>;

const FLOW_NAMES: Record<string, string> = {
  implicit: "Implicit", password: "Resource owner password", clientCredentials: "Client credentials",
  authorizationCode: "Authorization code", deviceAuthorization: "Device authorization",
};

/** `API key (header X-API-KEY)`, `HTTP bearer (JWT)`, `OAuth 2.0`, `OpenID Connect`, `Mutual TLS`. */
export function schemeSummary(scheme: Record<string, unknown> | undefined): string {
  if (!scheme) return "unknown scheme";
  switch (scheme.type) {
    case "apiKey": return `API key (${String(scheme.in ?? "?")} ${String(scheme.name ?? "?")})`;
    case "http": {
      const s = String(scheme.scheme ?? "").toLowerCase();
      return `HTTP ${s || "auth"}${typeof scheme.bearerFormat === "string" ? ` (${scheme.bearerFormat})` : ""}`;
    }
    case "oauth2": return "OAuth 2.0";
    case "openIdConnect": return "OpenID Connect";
    case "mutualTLS": return "Mutual TLS";
    default: return String(scheme.type ?? "unknown");
  }
}

function Flows({ flows }: { flows: unknown }) {
  if (!isObject(flows)) return null;
  return (
    <>
      {Object.entries(flows).map(([name, raw]) => {
        if (!isObject(raw)) return null;
        const scopes = isObject(raw.scopes) ? Object.entries(raw.scopes) : [];
        return (
          <div class="fw">
            <h4>{FLOW_NAMES[name] ?? name} flow</h4>
            <dl class="kv">
              {(["authorizationUrl", "deviceAuthorizationUrl", "tokenUrl", "refreshUrl"] as const).map((k) =>
                raw[k] === undefined ? null : <><dt>{k}</dt><dd><SafeLink url={raw[k]} /></dd></>)}
            </dl>
            {scopes.length > 0 ? (
              <table class="sp">
                <thead><tr><th scope="col">Scope</th><th scope="col">Description</th></tr></thead>
                <tbody>{scopes.map(([s, d]) => <tr><td><code>{s}</code></td><td>{String(d ?? "")}</td></tr>)}</tbody>
              </table>
            ) : <p class="fa">No scopes.</p>}
          </div>
        );
      })}
    </>
  );
}

/** One security scheme in full: type, where the credential goes, flows with URLs and scopes. */
export function SecurityScheme({ name, scheme, id }: { name: string; scheme: Record<string, unknown>; id?: string }) {
  return (
    <section class="ss" id={id} aria-labelledby={id ? `${id}-h` : undefined}>
      <h3 id={id ? `${id}-h` : undefined}>{name} <span class="bd">{schemeSummary(scheme)}</span>{scheme.deprecated === true && <span class="bd dp">deprecated</span>}</h3>
      <Markdown text={typeof scheme.description === "string" ? scheme.description : undefined} />
      <dl class="kv">
        {scheme.type === "apiKey" && <><dt>Sent in</dt><dd>{String(scheme.in)} <code>{String(scheme.name)}</code></dd></>}
        {scheme.type === "http" && <><dt>Authorization header</dt><dd><code>{String(scheme.scheme ?? "")}</code>{typeof scheme.bearerFormat === "string" ? ` (format ${scheme.bearerFormat})` : ""}</dd></>}
        {scheme.type === "openIdConnect" && <><dt>Discovery</dt><dd><SafeLink url={scheme.openIdConnectUrl} /></dd></>}
        {scheme.type === "oauth2" && scheme.oauth2MetadataUrl !== undefined && <><dt>Metadata</dt><dd><SafeLink url={scheme.oauth2MetadataUrl} /></dd></>}
        {scheme.type === "mutualTLS" && <><dt>Credential</dt><dd>A client certificate in the TLS handshake</dd></>}
      </dl>
      {scheme.type === "oauth2" && <Flows flows={scheme.flows} />}
    </section>
  );
}

/** Every scheme of the version. */
export function SecuritySchemes({ schemes, idPrefix = "security-" }: { schemes: Schemes; idPrefix?: string }) {
  const names = Object.keys(schemes);
  if (names.length === 0) return null;
  return <>{names.map((n) => <SecurityScheme name={n} scheme={schemes[n]} id={`${idPrefix}${n.replace(/[^A-Za-z0-9_-]/g, "-")}`} />)}</>;
}

/**
 * What one operation needs: each requirement is an alternative, the schemes inside one apply together.
 * An empty requirement means the operation can also be called without credentials.
 */
export function SecurityRequirements({ security, schemes, schemesHref, idPrefix, hl }: { security: Record<string, string[]>[]; schemes: Schemes; schemesHref: string; idPrefix: string; hl: number }) {
  const optional = security.some((r) => isObject(r) && Object.keys(r).length === 0);
  const reqs = security.filter((r) => isObject(r) && Object.keys(r).length > 0);
  return (
    <section class="blk" aria-labelledby={`${idPrefix}auth`}>
      <H level={hl} id={`${idPrefix}auth`}>Authorization</H>
      {reqs.length === 0 ? <p>No authorization required.</p> : (
        <>
          {reqs.length > 1 && <p>Any one of:</p>}
          <ul class="au">
            {reqs.map((r) => (
              <li>
                {Object.entries(r).map(([name, scopes], i) => (
                  <>
                    {i > 0 ? " and " : ""}
                    <a href={`${schemesHref}${name.replace(/[^A-Za-z0-9_-]/g, "-")}`}><strong>{name}</strong></a> <span class="bd">{schemeSummary(schemes[name])}</span>
                    {Array.isArray(scopes) && scopes.length > 0 && <> scopes: {scopes.map((s, j) => <>{j > 0 ? ", " : ""}<code>{String(s)}</code></>)}</>}
                  </>
                ))}
              </li>
            ))}
          </ul>
          {optional && <p class="fa">Credentials are optional: the operation also accepts anonymous requests.</p>}
        </>
      )}
    </section>
  );
}
