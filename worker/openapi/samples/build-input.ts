/** @module Builds the {@link SampleInput} of an operation slice: servers, filled path, parameters, auth, body. */
import type { OperationSlice, ReferenceHeader } from "../model/types";
import { viewSchema, type ViewBudget } from "../schema-view/build-view";
import { mediaTypeExample, type MediaExample } from "../schema-view/media-example";
import { effectiveParameters, isJsonMediaType, mediaTypesOf, requestBodyOf, responsesOf } from "../schema-view/operation";
import { authPlaceholders } from "./auth";
import { encodeBody } from "./body";
import { fillPath, parameterPairs, querystringPairs } from "./parameters";
import { sampleServers } from "./servers";
import type { SampleInput } from "./types";

/** Where webhook and callback samples are sent: the subscriber's endpoint, which the definition cannot know. */
export const RECEIVER_URL = "https://your-app.example.com/webhook";

/** Options for {@link buildSampleInput}. */
export interface SampleOptions {
  /** Origin for relative server URLs (e.g. the portal's own host). */
  origin?: string;
  /** Media type of the request body to use; default: the first JSON one, else the first declared. */
  mediaType?: string;
  /** Which of that media type's examples to use (index into its example list). Default 0. */
  exampleIndex?: number;
  /** The page's view budget (schema-view/view-budget.ts), when the sample is built for a page. */
  budget?: ViewBudget;
}

/** The request a sample shows, and the body example it carries (so the page can show the same one). */
export interface SampleBuild {
  input: SampleInput;
  body?: { mediaType: string; example: MediaExample };
}

/** Prefers JSON, then form encodings, then whatever comes first. */
export function preferredMediaType(types: string[]): string | undefined {
  return types.find(isJsonMediaType) ?? types.find((t) => t.startsWith("application/x-www-form-urlencoded") || t.startsWith("multipart/")) ?? types[0];
}

/**
 * Everything a code sample needs for `slice`. The body example is the definition's first example for the
 * chosen media type, else one generated from the request-mode schema view (readOnly properties absent).
 */
export function buildSampleInput(slice: OperationSlice, header: ReferenceHeader, options: SampleOptions = {}): SampleBuild {
  const refs = slice.refs;
  const params = effectiveParameters(slice);
  const input: SampleInput = {
    method: slice.summary.method.toUpperCase(),
    path: slice.summary.kind === "operation" ? fillPath(slice.summary.path, params, refs) : "",
    // Webhooks and callbacks are requests the API sends: they go to the reader's own receiver.
    servers: slice.summary.kind === "operation" ? sampleServers(slice.servers, options.origin) : [{ url: RECEIVER_URL, variables: {} }],
    query: [...parameterPairs(params, "query", refs), ...querystringPairs(params, refs)],
    headers: parameterPairs(params, "header", refs),
    cookies: parameterPairs(params, "cookie", refs),
    auth: authPlaceholders(slice.security, header.securitySchemes),
  };
  const success = responsesOf(slice).find(([code]) => /^2/.test(code)) ?? responsesOf(slice).find(([code]) => code === "default");
  const accept = success ? mediaTypesOf(success[1].content, refs)[0]?.[0] : undefined;
  if (accept && accept !== "*/*") input.headers.unshift({ name: "Accept", value: accept });
  const body = requestBodyOf(slice);
  const media = body ? mediaTypesOf(body.content, refs) : [];
  const mediaType = options.mediaType && media.some(([t]) => t === options.mediaType) ? options.mediaType : preferredMediaType(media.map(([t]) => t));
  const chosen = media.find(([t]) => t === mediaType);
  if (!chosen) return { input };
  const view = chosen[1].schema === undefined ? undefined : viewSchema(chosen[1].schema, refs, options.budget ? { mode: "request", budget: options.budget } : { mode: "request" });
  const examples = mediaTypeExample(chosen[1], view, refs).filter((e) => e.value !== undefined);
  const example = examples[Math.min(options.exampleIndex ?? 0, examples.length - 1)];
  if (!example) return { input };
  input.body = encodeBody(chosen[0], example.value, view);
  return { input, body: { mediaType: chosen[0], example } };
}
