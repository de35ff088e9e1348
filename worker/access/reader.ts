/**
 * @module Readers and access: the one `ReaderContext` every reader surface renders against and the one
 * `canRead` that decides (../shared/ARCHITECTURE.md, "Readers and access"). Pages, navigation, tag lists,
 * sitemap, RSS, llms.txt and audience blocks all call `canRead`; nothing else decides visibility.
 */

import type { ReaderIdentity } from "./identity";

/** The audience every reader holds, signed in or not. */
export const PUBLIC = "public";
/** The audience every signed-in reader holds, whatever way they came in; a private portal's unlabelled units carry it. */
export const SIGNED_IN = "signed-in";

/**
 * Who is reading. Resolved once per request from the session cookie (worker/access/resolve.ts). `variables` are per-reader values for `{{name}}` placeholders, over the bundle's defaults.
 */
export interface ReaderContext {
  readerId?: string;
  email?: string;
  /** Audience names the reader holds; always includes `public`. */
  audiences: string[];
  variables: Record<string, string>;
  /** BCP 47 tag of the locale the reader asked for (the portal default when none). */
  locale: string;
  apiKey?: string;
}

/** The anonymous reader: audience `public`, no variables of its own. */
export function anonymousReader(locale: string): ReaderContext {
  return { audiences: [PUBLIC], variables: {}, locale };
}

/** A signed-in reader: `public`, `signed-in` and the identity's audiences; its variables (`api_key` is the API key). */
export function signedInReader(identity: ReaderIdentity, locale: string): ReaderContext {
  const audiences = [...new Set([PUBLIC, SIGNED_IN, ...identity.audiences])];
  return {
    readerId: identity.readerId, ...(identity.email ? { email: identity.email } : {}), audiences, variables: identity.variables, locale,
    ...(identity.variables.api_key ? { apiKey: identity.variables.api_key } : {}),
  };
}

/**
 * True iff the reader holds one of `labels` (audience names). A unit with no labels is public.
 * The single access decision of the portal: every surface calls this.
 */
export function canRead(reader: Pick<ReaderContext, "audiences">, labels: readonly string[]): boolean {
  if (labels.length === 0) return true;
  for (const label of labels) {
    if (label === PUBLIC || reader.audiences.includes(label)) return true;
  }
  return false;
}
