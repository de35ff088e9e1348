/** @module Media types of a request body or response: schema (or 3.2 streaming itemSchema) and examples, computed once. */
import { viewSchema } from "../../openapi/schema-view/build-view";
import { mediaTypeExample, type MediaExample } from "../../openapi/schema-view/media-example";
import { mediaTypesOf } from "../../openapi/schema-view/operation";
import type { SchemaView, ViewMode } from "../../openapi/schema-view/types";
import type { RenderContext } from "./context";
import { FactsOptions, RESPONSE_EXAMPLE_MAX } from "./schema-facts";
import { SchemaBlock } from "./schema-tree";
import { Tabs } from "./tabs";

/** One media type, resolved: its schema view (or item view for sequential media) and its examples. */
export interface MediaEntry {
  type: string;
  view?: SchemaView;
  /** 3.2 `itemSchema`: each item of a stream (SSE, JSON Lines, multipart/mixed). */
  itemView?: SchemaView;
  examples: MediaExample[];
}

/** Builds the entries of a `content` map with one schema view each, so the viewer and examples share it. */
export function mediaEntries(content: unknown, refs: Record<string, unknown>, mode: ViewMode, ctx: RenderContext): MediaEntry[] {
  return mediaTypesOf(content, refs).map(([type, media]) => {
    const entry: MediaEntry = { type, examples: [] };
    if (media.schema !== undefined) entry.view = viewSchema(media.schema, refs, { mode, anchorPrefix: ctx.uid("s"), repeats: ctx.repeats, budget: ctx.budget });
    if (media.itemSchema !== undefined) entry.itemView = viewSchema(media.itemSchema, refs, { mode, anchorPrefix: ctx.uid("s"), repeats: ctx.repeats, budget: ctx.budget });
    entry.examples = mediaTypeExample(media, entry.view ?? entry.itemView, refs);
    return entry;
  });
}

/** The schema of each media type, as tabs when there are several. `response`: only short example chips. */
export function MediaSchemas({ entries, ctx, response }: { entries: MediaEntry[]; ctx: RenderContext; response?: boolean }) {
  return (
    <FactsOptions.Provider value={{ exampleMax: response ? RESPONSE_EXAMPLE_MAX : 120 }}>
    <Tabs ctx={ctx} label="Media type" class="mt" tabs={entries.map((e) => ({
      label: e.type,
      content: (
        <div class="me">
          {entries.length === 1 && <p class="fa"><span class="fl">Media type:</span> <code>{e.type}</code></p>}
          {e.view && <SchemaBlock view={e.view} ctx={ctx} />}
          {e.itemView && <SchemaBlock view={e.itemView} ctx={ctx} title="Each item of the stream:" />}
          {!e.view && !e.itemView && <p class="fa">No schema.</p>}
        </div>
      ),
    }))} />
    </FactsOptions.Provider>
  );
}
