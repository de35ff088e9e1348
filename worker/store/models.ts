/**
 * @module Processed models in KV. Keys are immutable and content-addressed (model version + definition hash +
 * archive root), so KV's eventual consistency can never show a mix of two versions: only the D1 live pointer moves.
 */
import { MODEL_VERSION, type OperationSlice, type ReferenceHeader } from "../openapi/model/types";
import { sha256Hex } from "./tokens";

/** The KV prefix of one built model. */
export async function modelKeyFor(definitionSha256: string, root: string | undefined): Promise<string> {
  const rootPart = root ? (await sha256Hex(root)).slice(0, 16) : "-";
  return `m/${MODEL_VERSION}/${definitionSha256}/${rootPart}`;
}

const headerKey = (modelKey: string) => `${modelKey}/header`;
const sliceKey = (modelKey: string, slug: string) => `${modelKey}/op/${slug}`;

/** True when the model's header exists; the header is written last, so this means every slice is there too. */
export async function modelComplete(kv: KVNamespace, modelKey: string): Promise<boolean> {
  return (await kv.get(headerKey(modelKey))) !== null;
}

export async function putHeader(kv: KVNamespace, modelKey: string, header: ReferenceHeader): Promise<void> {
  await kv.put(headerKey(modelKey), JSON.stringify(header));
}

export async function putSlice(kv: KVNamespace, modelKey: string, slice: OperationSlice): Promise<void> {
  await kv.put(sliceKey(modelKey, slice.summary.slug), JSON.stringify(slice));
}

export async function getHeader(kv: KVNamespace, modelKey: string): Promise<ReferenceHeader | null> {
  return kv.get<ReferenceHeader>(headerKey(modelKey), "json");
}

export async function getSlice(kv: KVNamespace, modelKey: string, slug: string): Promise<OperationSlice | null> {
  return kv.get<OperationSlice>(sliceKey(modelKey, slug), "json");
}
