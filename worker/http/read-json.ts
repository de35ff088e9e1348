/** @module Bounded JSON request bodies. */
import { ApiError } from "./errors";
import { readBodyLimited } from "./read-body";

/**
 * Reads a JSON object body of at most `maxBytes`.
 * @throws ApiError 413 when larger, 400 when not JSON or not an object.
 */
export async function readJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const bytes = await readBodyLimited(request, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new ApiError(400, "invalid-json", `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new ApiError(400, "invalid-json", "request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}
