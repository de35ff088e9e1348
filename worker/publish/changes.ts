/**
 * @module The changes between two published versions of an API (issue 11): both raw definitions from R2, built
 * (an archive from the root its publish named, versions.root) and compared with openapi/diff. The result is
 * immutable for a pair of models, so it is kept in KV under the pair's content address
 * (`diff/2/<sha256 of both model keys>`) and computed once.
 */

import { buildReference, MAX_DEFINITION_BYTES } from "../openapi/build";
import { diff, sideFromBuild, type DiffResult } from "../openapi/diff";
import { ApiError } from "../http/errors";
import { publishedVersionsQuery, type ApiRow, type VersionRow } from "../store/apis";
import type { Db } from "../store/db";
import { getDefinition, locateDefinition } from "../store/definitions";
import { sha256Hex } from "../store/tokens";

/** What a changes answer is about: the two versions and the diff from `from` to `to`. */
export interface VersionChanges {
  from: VersionRow;
  to: VersionRow;
  result: DiffResult;
}

/** Bindings the changes need. */
export interface ChangesEnv {
  DEFINITIONS: R2Bucket;
  MODELS: KVNamespace;
}

/** Bump when the engine's output changes shape or verdicts, so cached results are recomputed. */
const CACHE_VERSION = 2;

/**
 * The changes from `fromLabel` to `toLabel` (labels in NFC). `toLabel` defaults to the live version and `fromLabel`
 * to the published version before `to`. Throws ApiError 404 `unknown-version` naming the parameter, and 422
 * `unreadable-version` naming the side and line when a stored definition no longer builds.
 */
export async function versionChanges(env: ChangesEnv, db: Db, api: ApiRow, fromLabel: string | undefined, toLabel: string | undefined): Promise<VersionChanges> {
  const published = await publishedVersionsQuery(db, api.id).all(); // newest first
  const to = toLabel === undefined ? published.find((v) => v.id === api.liveVersionId) : published.find((v) => v.label === toLabel);
  if (!to) throw new ApiError(404, "unknown-version", toLabel === undefined ? `API "${api.slug}" has no live version` : `to: API "${api.slug}" has no published version "${toLabel}"`, { side: "to" });
  const from = fromLabel === undefined ? published[published.indexOf(to) + 1] : published.find((v) => v.label === fromLabel);
  if (!from) throw new ApiError(404, "unknown-version", fromLabel === undefined ? `API "${api.slug}" has no version published before "${to.label}": name one with ?from=` : `from: API "${api.slug}" has no published version "${fromLabel}"`, { side: "from" });
  const key = `diff/${CACHE_VERSION}/${await sha256Hex(new TextEncoder().encode(`${from.modelKey}\n${to.modelKey}`))}`;
  const cached = await env.MODELS.get(key);
  if (cached) return { from, to, result: JSON.parse(cached) as DiffResult };
  const [base, revision] = await Promise.all([side(env, from, "from"), side(env, to, "to")]);
  const result = diff(base, revision);
  await env.MODELS.put(key, JSON.stringify(result));
  return { from, to, result };
}

async function side(env: ChangesEnv, version: VersionRow, name: "from" | "to") {
  // The diff compares whole documents: a definition built streamed (past 25 MiB, issue 12) is not read whole.
  const size = (await locateDefinition(env.DEFINITIONS, version.sha256))?.size ?? 0;
  if (size > MAX_DEFINITION_BYTES) {
    throw new ApiError(422, "too-large-to-diff", `${name}: version "${version.label}" has ${size} bytes; versions are compared up to ${MAX_DEFINITION_BYTES} bytes (25 MiB)`, { side: name, version: version.label });
  }
  const raw = await getDefinition(env.DEFINITIONS, version.sha256);
  if (!raw) throw new ApiError(422, "unreadable-version", `${name}: the raw definition of version "${version.label}" is missing`, { side: name, version: version.label });
  // The archive's root as the publish named it: with two candidate roots, no other reading is the published one.
  const built = buildReference({ body: raw.body, ...(version.root !== null ? { root: version.root } : {}) });
  if (!built.ok) {
    const at = built.line !== undefined ? ` (line ${built.line}${built.column !== undefined ? `, column ${built.column}` : ""})` : "";
    throw new ApiError(422, "unreadable-version", `${name}: version "${version.label}" cannot be read${at}: ${built.message}`, {
      side: name,
      version: version.label,
      ...(built.line !== undefined ? { line: built.line } : {}),
      ...(built.column !== undefined ? { column: built.column } : {}),
    });
  }
  return sideFromBuild(built);
}
