/** @module One operation, webhook or callback: header, description, auth, parameters, body, responses, examples. */
import type { OperationSummary, ReferenceHeader } from "../../openapi/model/types";
import { isObject } from "../../openapi/schema-view/refs";
import type { PageProps } from "../types";
import { operationUrl, versionUrl } from "../urls";
import { Callbacks } from "./callbacks";
import type { RenderContext } from "./context";
import { ExamplesPanel } from "./examples-panel";
import { H } from "./heading";
import { InlineMarkdown, Markdown } from "./markdown";
import { MethodBadge } from "./op-link";
import type { OperationModel } from "./operation-model";
import { Parameters } from "./parameters";
import { RequestBody } from "./request-body";
import { Responses } from "./responses";
import { SafeLink } from "./safe-link";
import { SecurityRequirements } from "./security";
import { ServerList } from "./servers";

/** The heading text of an operation: its summary, else `METHOD path` (webhooks: their name). */
export function operationTitle(op: OperationSummary): string {
  return op.summary?.trim() || `${op.method.toUpperCase()} ${op.path}`;
}

function Eyebrow({ op, page }: { op: OperationSummary; page: PageProps }) {
  if (op.kind === "webhook") return <p class="eb">Webhook</p>;
  if (op.kind === "callback") {
    return (
      <p class="eb">
        Callback <code>{op.callbackName}</code>{op.parentSlug ? <> of <a href={operationUrl(page.basePath, page.api, page.version.label, op.parentSlug)}>{op.parentSlug}</a></> : null}
      </p>
    );
  }
  return op.tags.length > 0 ? <p class="eb">{op.tags.join(" · ")}</p> : null;
}

/** What a page shows of an operation whose details could not be rendered: its title, method and path, and why. */
export function DegradedArticle({ op }: { op: OperationSummary }) {
  return (
    <article class="op" aria-labelledby="op-title">
      <div class="op-d">
        <header class="op-h">
          <H level={1} id="op-title"><InlineMarkdown text={operationTitle(op)} /></H>
          <p class="ep"><MethodBadge method={op.method} /> <code class="path">{op.path}</code></p>
        </header>
        <p class="cf" role="note">This operation's details are too large to show within this page's limits.</p>
      </div>
    </article>
  );
}

/**
 * The article. `hl` is the level of the operation's heading (1 on its own page, 2 on a single page);
 * sections go one level below. Ids are prefixed with the slug on single pages (`idPrefix`).
 */
export function OperationArticle(props: OperationArticleProps) {
  return (
    <article class="op" id={props.id} aria-labelledby={`${props.idPrefix}title`}>
      <OperationArticleBody {...props} />
    </article>
  );
}

/** Props of {@link OperationArticle}. */
export interface OperationArticleProps {
  model: OperationModel; header: ReferenceHeader; page: PageProps; ctx: RenderContext; hl: number; idPrefix: string; id?: string;
  /** False where only the schema side matters (a fragment's capture render): the examples column is skipped. */
  examples?: boolean;
}

/**
 * What {@link OperationArticle} holds inside its `<article>`: rendered alone where a page keeps it as HTML
 * (pages/operation-page.tsx memoises it). Of `page` it reads only `basePath`, `api`, `version.label`,
 * `authorize.apiKey` and `variables`: a memo key must name each of them.
 */
export function OperationArticleBody({ model, header, page, ctx, hl, idPrefix, examples = true }: OperationArticleProps) {
  const { slice } = model;
  const op = slice.summary;
  const operation = slice.operation;
  const index = versionUrl(page.basePath, page.api.slug, page.version.label);
  const servers = slice.servers.filter(isObject);
  const ext = isObject(operation.externalDocs) ? operation.externalDocs : undefined;
  return (
    <>
      <div class="op-d">
        <header class="op-h">
          <Eyebrow op={op} page={page} />
          <H level={hl} id={`${idPrefix}title`}><InlineMarkdown text={operationTitle(op)} /></H>
          <p class="ep">
            <MethodBadge method={op.method} /> <code class="path">{op.path}</code>
            {op.deprecated && <span class="bd dp">deprecated</span>}
          </p>
          {op.operationId && <p class="fa"><span class="fl">operationId</span> <code>{op.operationId}</code></p>}
        </header>
        <Markdown text={typeof operation.description === "string" ? operation.description : undefined} />
        {ext && <p><SafeLink url={ext.url}>{typeof ext.description === "string" ? ext.description : "External documentation"}</SafeLink></p>}
        {op.kind === "operation" && (
          <SecurityRequirements security={slice.security} schemes={header.securitySchemes} schemesHref={`${index}#security-`} idPrefix={idPrefix} hl={hl + 1} />
        )}
        {op.kind === "operation" && servers.length > 1 && (
          <section class="blk" aria-labelledby={`${idPrefix}servers`}>
            <H level={hl + 1} id={`${idPrefix}servers`}>Servers</H>
            <ServerList servers={servers} />
          </section>
        )}
        <Parameters params={model.params} views={model.paramViews} ctx={ctx} idPrefix={idPrefix} hl={hl + 1} />
        {model.body && <RequestBody body={model.body} entries={model.bodyEntries} ctx={ctx} idPrefix={idPrefix} hl={hl + 1} />}
        <Responses entries={model.responses} refs={slice.refs} ctx={ctx} idPrefix={idPrefix} hl={hl + 1} />
        <Callbacks operation={operation} parentSlug={op.slug} refs={slice.refs} hl={hl + 1} idPrefix={idPrefix}
          href={(slug) => operationUrl(page.basePath, page.api, page.version.label, slug)} />
      </div>
      {examples && <ExamplesPanel model={model} ctx={ctx} hl={hl + 1} apiKey={page.authorize?.apiKey} variables={page.variables}
        label={hl === 1 ? "Examples" : `Examples: ${operationTitle(op)}`}
        tryIt={op.kind === "operation" ? { spec: `${index}${encodeURIComponent(op.slug)}/try.json`, base: page.basePath } : undefined} />}
    </>
  );
}
