/** @module One operation as a link: method badge, path, summary; carries what the legacy-anchor script reads. */
import { slugify } from "../../openapi/model/slug";
import type { OperationSummary } from "../../openapi/model/types";

/** Method badge (`GET`, `QUERY`, a custom 3.2 method as written). */
export function MethodBadge({ method }: { method: string }) {
  return <span class={`mb m-${method.toLowerCase().replace(/[^a-z]/g, "")}`}>{method.toUpperCase()}</span>;
}

/**
 * A link to an operation, readable by client/entries/anchors.ts: full links (`opl`) show method and path, so
 * only `data-oid` is added, and only when the slug is not simply derived from the operationId; compact
 * links (summary only) also carry `data-op` (`method path`). `bare` links carry nothing (operation pages).
 */
export function OpLink({ op, href, current, compact, bare }: { op: OperationSummary; href: string; current?: boolean; compact?: boolean; bare?: boolean }) {
  const oid = !bare && op.operationId && slugify(op.operationId) !== op.slug ? op.operationId : undefined;
  const cls = [compact ? undefined : "opl", op.deprecated ? "dep" : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <a href={href} data-op={bare || !compact ? undefined : `${op.method} ${op.path}`} data-slug={bare || !compact ? undefined : op.slug} data-oid={oid} aria-current={current ? "page" : undefined} class={cls}>
      <MethodBadge method={op.method} /> {compact ? <span class="ol">{op.summary || op.path}</span> : <><code class="op-path">{op.path}</code>{op.summary ? <span class="ol"> {op.summary}</span> : null}</>}
    </a>
  );
}
