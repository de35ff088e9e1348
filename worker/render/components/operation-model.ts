/** @module Everything about one operation that the article and the examples panel share, resolved once. */
import type { OperationSlice, ReferenceHeader } from "../../openapi/model/types";
import { buildSampleInput, type SampleBuild } from "../../openapi/samples/build-input";
import { effectiveParameters, requestBodyOf, responsesOf, type ResolvedParameter } from "../../openapi/schema-view/operation";
import type { JsonObject } from "../../openapi/schema-view/refs";
import type { SchemaView } from "../../openapi/schema-view/types";
import type { RenderContext } from "./context";
import { mediaEntries, type MediaEntry } from "./media";
import { parameterView } from "./parameters";
import type { ResponseEntry } from "./responses";

/** A slice resolved for rendering. */
export interface OperationModel {
  slice: OperationSlice;
  params: ResolvedParameter[];
  /** The view of each of `params`, same order. */
  paramViews: SchemaView[];
  body?: JsonObject;
  bodyEntries: MediaEntry[];
  responses: ResponseEntry[];
  sample: SampleBuild;
}

/** Resolves parameters, body and responses (schema views in request/response mode) and the code-sample request. */
export function buildOperationModel(slice: OperationSlice, header: ReferenceHeader, ctx: RenderContext, origin?: string): OperationModel {
  const body = requestBodyOf(slice);
  const params = effectiveParameters(slice);
  // Views in page order (parameters, body, responses), so that "same as above" always points up the page.
  const paramViews = params.map((p) => parameterView(p, slice.refs, ctx));
  return {
    slice,
    params,
    paramViews,
    body,
    bodyEntries: body ? mediaEntries(body.content, slice.refs, "request", ctx) : [],
    responses: responsesOf(slice).map(([code, response]) => ({ code, response, media: mediaEntries(response.content, slice.refs, "response", ctx) })),
    // Built last, within what the page's views left of its budget (a huge page gets a cut sample, not a slow one).
    sample: buildSampleInput(slice, header, origin ? { origin, budget: ctx.budget } : { budget: ctx.budget }),
  };
}
