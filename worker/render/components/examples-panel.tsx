/** @module The examples column: code samples (island), the request example they send, response examples by status. */
import CodeSamples from "../../../client/islands/code-samples";
import CopyButton from "../../../client/islands/copy";
import TryIt from "../../../client/islands/try-it";
import { BUDGET_NOTES } from "../../openapi/budgets";
import { withCredential } from "../../openapi/samples/auth";
import { bodyInCode } from "../../openapi/samples/body-in-code";
import { fillPlaceholders, fillPlaceholdersDeep } from "../../openapi/samples/variables";
import type { MediaExample } from "../../openapi/schema-view/media-example";
import { prettyExample } from "../format";
import { renderToString } from "preact-render-to-string";
import { Code, escapeText } from "./code";
import { deferExample, examplePreview } from "./defer";
import type { RenderContext } from "./context";
import { H } from "./heading";
import { Island } from "./island";
import type { OperationModel } from "./operation-model";
import { statusLabel } from "./responses";
import { SafeLink } from "./safe-link";
import { Tabs } from "./tabs";

function ExampleBlock({ example, ctx, mediaType, variables = {} }: { example: MediaExample; ctx: RenderContext; mediaType?: string; variables?: Record<string, string> }) {
  const id = ctx.uid("x");
  const external = example.externalValue !== undefined && example.value === undefined;
  const text = external ? "" : prettyExample(example.value);
  // Page weight: past the page's example budget a long example shows its first lines; the whole loads in place
  // from its fragment (whose code keeps this id, so the copy button there copies it all) or opens as a page.
  const fragment = external ? undefined : deferExample(ctx, text);
  if (fragment !== undefined && ctx.defer?.capture?.target === fragment) {
    ctx.defer.capture.html = renderToString(<><pre tabIndex={0}><Code id={id} text={text} /></pre><Island name="copy" component={CopyButton} props={{ target: id }} /></>);
  }
  const href = fragment === undefined ? undefined : ctx.defer!.href(fragment);
  return (
    <div class="ex">
      {(mediaType || example.summary || example.generated) && (
        <p class="fa">{mediaType && <code>{mediaType}</code>} {example.summary ?? ""}{example.generated ? " (generated from the schema)" : ""}</p>
      )}
      {external
        ? <p class="fa">External example: <SafeLink url={example.externalValue!} /></p>
        : href !== undefined
          ? <div class="df" data-frag={href}><pre tabIndex={0}><code dangerouslySetInnerHTML={{ __html: escapeText(examplePreview(text)) }} /></pre><p class="fa"><a href={href}>Show the whole example ({lineCount(text)} lines, {kilobytes(text)})</a></p></div>
          : <><pre tabIndex={0}><Code id={id} text={fillPlaceholders(text, variables)} /></pre><Island name="copy" component={CopyButton} props={{ target: id }} /></>}
      {example.truncated && <TruncatedNote />}
    </div>
  );
}

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** UTF-8 size in KB, one decimal under 10 KB. */
function kilobytes(text: string): string {
  const kb = new TextEncoder().encode(text).length / 1024;
  return `${kb < 10 ? kb.toFixed(1) : Math.round(kb)} KB`;
}

/** Said under a generated example that a budget cut or that misses a bound it could not meet (`minLength: 1e9`). */
function TruncatedNote() {
  return <p class="fa bn" role="note">{BUDGET_NOTES.exampleTruncated}: generated within the page's limits, it may not satisfy every constraint of the schema.</p>;
}

/**
 * Request sample in every language (carrying the reader's `apiKey` when they entered one), then examples; the
 * response tabs follow status-code order. `variables` (the reader's values over the content's defaults) fill
 * `{{name}}` placeholders in the samples and examples.
 */
export function ExamplesPanel({ model, ctx, hl, apiKey, variables = {}, tryIt, label = "Examples" }: {
  model: OperationModel; ctx: RenderContext; hl: number; apiKey?: string; variables?: Record<string, string>;
  /** The landmark's name: unique on the page (a single page holds one panel per operation). */
  label?: string;
  /** The Try-it panel's URLs (operations only: webhooks and callbacks are sent by the API, not to it). */
  tryIt?: { spec: string; base: string };
}) {
  const { sample } = model;
  const responses = model.responses
    .map((r) => ({ code: r.code, media: r.media.find((m) => m.examples.length > 0) }))
    .filter((r) => r.media);
  const reqExamples = model.bodyEntries.find((e) => e.type === sample.body?.mediaType)?.examples ?? [];
  const id = `${model.slice.summary.slug}-sample`;
  const input = withCredential(fillPlaceholdersDeep(sample.input, variables), apiKey);
  // The JSON body is in the cURL code already: the island's props leave it out when it reads back exactly.
  const slim = bodyInCode(input);
  return (
    <aside class="op-x" aria-label={label}>
      <H level={hl} class="xh">Request</H>
      <Island name="code-samples" component={CodeSamples} props={{ input, id }} wire={slim && { input: slim, id, bodyInCode: true }} />
      {sample.body?.example.truncated && <TruncatedNote />}
      {tryIt && <Island name="try-it" component={TryIt} props={{ ...tryIt, samples: id }} />}
      {/* One example is already in the code sample; several get tabs (the sample sends the first). */}
      {sample.body && reqExamples.length > 1 && (
        <Tabs ctx={ctx} label="Request example" tabs={reqExamples.map((ex) => ({
          label: ex.summary ?? ex.name,
          content: <ExampleBlock example={ex} ctx={ctx} mediaType={sample.body!.mediaType} variables={variables} />,
        }))} />
      )}
      {responses.length > 0 && (
        <>
          <H level={hl} class="xh">Response</H>
          <Tabs ctx={ctx} label="Response status" class="rt" tabs={responses.map((r) => ({
            label: <span class={`s${r.code[0]}`}>{r.code}</span>,
            content: (
              <>
                <p class="fa">{statusLabel(r.code)}</p>
                <ExampleBlock example={r.media!.examples[0]} ctx={ctx} mediaType={r.media!.type} variables={variables} />
              </>
            ),
          }))} />
        </>
      )}
    </aside>
  );
}
