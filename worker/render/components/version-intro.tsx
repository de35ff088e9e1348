/** @module The top of a version's reference: title, counts, description, contact, servers, authentication. */
import type { ReferenceHeader } from "../../openapi/model/types";
import { isObject } from "../../openapi/schema-view/refs";
import { H } from "./heading";
import { Markdown } from "./markdown";
import { SafeLink } from "./safe-link";
import { SecuritySchemes } from "./security";
import { ServerList } from "./servers";

/** The reference's counts, as the issue asks: operations, expanded schemas, security schemes (+ webhooks, callbacks). */
export function Counts({ header }: { header: ReferenceHeader }) {
  const c = header.counts;
  const items: [number, string, string][] = [
    [c.operations, "operation", "operations"], [c.schemas, "schema", "schemas"], [c.securitySchemes, "security scheme", "security schemes"],
    [c.webhooks, "webhook", "webhooks"], [c.callbacks, "callback", "callbacks"],
  ];
  return (
    <ul class="counts" aria-label="Counts">
      {items.filter(([n], i) => i < 3 || n > 0).map(([n, one, many]) => <li><strong>{n}</strong> {n === 1 ? one : many}</li>)}
    </ul>
  );
}

/** Title block plus servers and every security scheme. */
export function VersionIntro({ header, versionLabel }: { header: ReferenceHeader; versionLabel: string }) {
  const info = header.info;
  const contact = isObject(info.contact) ? info.contact : undefined;
  const license = isObject(info.license) ? info.license : undefined;
  return (
    <>
      <header class="intro">
        <h1>{info.title}</h1>
        <p class="fa">
          <span class="ch">version {info.version || versionLabel}</span>
          {/* The label can differ from info.version (?version=, or "/" replaced: publish/names.ts labelFromVersion). */}
          {info.version && info.version !== versionLabel ? <span class="ch">label {versionLabel}</span> : null}
          <span class="ch">OpenAPI {header.openapi}{header.sourceVersion === "2.0" ? " (upgraded from Swagger 2.0)" : ""}</span>
        </p>
        <Counts header={header} />
      </header>
      {typeof info.summary === "string" && <p class="lead">{info.summary}</p>}
      {/* Right under the h1: a description's "##" is a section of the page (h2), so the outline skips no level. */}
      <Markdown text={typeof info.description === "string" ? info.description : undefined} headingShift={0} />
      {(contact || license || info.termsOfService || header.externalDocs) && (
        <dl class="kv">
          {contact && <><dt>Contact</dt><dd>{String(contact.name ?? "")} {contact.email ? <SafeLink url={`mailto:${String(contact.email)}`}>{String(contact.email)}</SafeLink> : null} {contact.url ? <SafeLink url={contact.url} /> : null}</dd></>}
          {license && <><dt>License</dt><dd>{license.url ? <SafeLink url={license.url}>{String(license.name ?? license.url)}</SafeLink> : String(license.name ?? license.identifier ?? "")}</dd></>}
          {info.termsOfService ? <><dt>Terms of service</dt><dd><SafeLink url={info.termsOfService} /></dd></> : null}
          {header.externalDocs && <><dt>Documentation</dt><dd><SafeLink url={header.externalDocs.url}>{header.externalDocs.description ?? header.externalDocs.url}</SafeLink></dd></>}
        </dl>
      )}
      {header.servers.length > 0 && (
        <section class="blk" aria-labelledby="servers"><H level={2} id="servers">Servers</H><ServerList servers={header.servers} /></section>
      )}
      {Object.keys(header.securitySchemes).length > 0 && (
        <section class="blk" id="security" aria-labelledby="security-title">
          <H level={2} id="security-title">Authentication</H>
          <SecuritySchemes schemes={header.securitySchemes} />
        </section>
      )}
    </>
  );
}
