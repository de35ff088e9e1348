/** @module Responses by status code: description, headers, schema per media type, links. */
import { viewSchema } from "../../openapi/schema-view/build-view";
import { deref, isObject, type JsonObject } from "../../openapi/schema-view/refs";
import { literal } from "../format";
import type { RenderContext } from "./context";
import { H } from "./heading";
import { Markdown } from "./markdown";
import { MediaSchemas, type MediaEntry } from "./media";
import { PropertyRow } from "./schema-tree";

/** A response resolved for rendering. */
export interface ResponseEntry {
  code: string;
  response: JsonObject;
  media: MediaEntry[];
}

const REASONS: Record<string, string> = {
  "200": "OK", "201": "Created", "202": "Accepted", "204": "No Content", "206": "Partial Content", "301": "Moved Permanently",
  "302": "Found", "304": "Not Modified", "307": "Temporary Redirect", "308": "Permanent Redirect", "400": "Bad Request", "401": "Unauthorized",
  "403": "Forbidden", "404": "Not Found", "405": "Method Not Allowed", "406": "Not Acceptable", "409": "Conflict", "410": "Gone",
  "412": "Precondition Failed", "413": "Content Too Large", "415": "Unsupported Media Type", "422": "Unprocessable Content",
  "429": "Too Many Requests", "500": "Internal Server Error", "501": "Not Implemented", "502": "Bad Gateway", "503": "Service Unavailable",
  "504": "Gateway Timeout", default: "Any other status", "1XX": "Informational", "2XX": "Success", "3XX": "Redirection", "4XX": "Client error", "5XX": "Server error",
};

/** `200 OK`, `4XX Client error`, `default`. */
export function statusLabel(code: string): string {
  const reason = REASONS[code.toUpperCase()] ?? REASONS[code];
  return code === "default" ? "default" : reason ? `${code} ${reason}` : code;
}

function Headers({ headers, refs, ctx, hl }: { headers: unknown; refs: Record<string, unknown>; ctx: RenderContext; hl: number }) {
  if (!isObject(headers) || Object.keys(headers).length === 0) return null;
  return (
    <>
      <H level={hl}>Headers</H>
      <ul class="pr">
        {Object.entries(headers).map(([name, raw]) => {
          const h = deref(raw, refs).value;
          if (!isObject(h)) return null;
          const schema = h.schema ?? (isObject(h.content) ? (Object.values(h.content)[0] as JsonObject | undefined)?.schema : undefined);
          const view = schema === undefined ? { types: [] } : viewSchema(schema, refs, { mode: "response", anchorPrefix: ctx.uid("h"), maxNodes: 200, budget: ctx.budget });
          const shown = { ...view, ...(typeof h.description === "string" ? { description: h.description } : {}), ...(h.deprecated === true ? { deprecated: true } : {}) };
          if (h.example !== undefined) shown.examples = [h.example];
          return <PropertyRow prop={{ name, required: h.required === true, schema: shown }} ctx={ctx} depth={0} />;
        })}
      </ul>
    </>
  );
}

function Links({ links, refs, hl }: { links: unknown; refs: Record<string, unknown>; hl: number }) {
  if (!isObject(links) || Object.keys(links).length === 0) return null;
  return (
    <>
      <H level={hl}>Links</H>
      <dl class="ln">
        {Object.entries(links).map(([name, raw]) => {
          const l = deref(raw, refs).value;
          if (!isObject(l)) return null;
          const target = typeof l.operationId === "string" ? l.operationId : typeof l.operationRef === "string" ? l.operationRef : "";
          return (
            <>
              <dt><code>{name}</code> → <code>{target}</code></dt>
              <dd>
                <Markdown text={typeof l.description === "string" ? l.description : undefined} />
                {isObject(l.parameters) && <p class="fa">{Object.entries(l.parameters).map(([k, v]) => <span class="ch">{k} = {literal(v, 80)}</span>)}</p>}
                {l.requestBody !== undefined && <p class="fa"><span class="ch">body = {literal(l.requestBody, 80)}</span></p>}
              </dd>
            </>
          );
        })}
      </dl>
    </>
  );
}

/** Every response; success responses start expanded, others collapsed. */
export function Responses({ entries, refs, ctx, idPrefix, hl }: { entries: ResponseEntry[]; refs: Record<string, unknown>; ctx: RenderContext; idPrefix: string; hl: number }) {
  if (entries.length === 0) return null;
  return (
    <section class="blk" aria-labelledby={`${idPrefix}responses`}>
      <H level={hl} id={`${idPrefix}responses`}>Responses</H>
      {entries.map((r) => (
        <details class={`rs s${r.code[0]}`} id={`${idPrefix}response-${r.code}`} open={/^2/.test(r.code)}>
          <summary><H level={hl + 1} class="rc">{statusLabel(r.code)}</H></summary>
          <Markdown text={typeof r.response.description === "string" ? r.response.description : undefined} />
          <Headers headers={r.response.headers} refs={refs} ctx={ctx} hl={hl + 2} />
          {r.media.length > 0 ? <MediaSchemas entries={r.media} ctx={ctx} response /> : null}
          <Links links={r.response.links} refs={refs} hl={hl + 2} />
        </details>
      ))}
    </section>
  );
}
