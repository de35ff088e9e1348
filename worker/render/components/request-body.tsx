/** @module The request body section. */
import type { JsonObject } from "../../openapi/schema-view/refs";
import type { RenderContext } from "./context";
import { H } from "./heading";
import { Markdown } from "./markdown";
import { MediaSchemas, type MediaEntry } from "./media";

/** Description, required flag and the schema per media type. */
export function RequestBody({ body, entries, ctx, idPrefix, hl }: { body: JsonObject; entries: MediaEntry[]; ctx: RenderContext; idPrefix: string; hl: number }) {
  return (
    <section class="blk" aria-labelledby={`${idPrefix}body`}>
      <H level={hl} id={`${idPrefix}body`}>Request body{body.required === true ? <> <span class="rq">required</span></> : null}</H>
      <Markdown text={typeof body.description === "string" ? body.description : undefined} />
      <MediaSchemas entries={entries} ctx={ctx} />
    </section>
  );
}
