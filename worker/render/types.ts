/** @module What the routes pass to the page renderers. */
import type { AuthorizeState, ShellChrome } from "./shell/types";

export type { AuthorizeState };

/** The portal a page belongs to. */
export interface PortalRef {
  slug: string;
  name: string;
}

/** An API of the portal, with its chosen layout. */
export interface ApiRef {
  slug: string;
  title: string;
  layout: "page-per-operation" | "single-page";
}

/** A published version of an API; `live` marks the one readers get by default. */
export interface VersionRef {
  label: string;
  live: boolean;
}

/** Shared by every reference page: where it sits and what the switchers offer. */
export interface PageProps {
  portal: PortalRef;
  /** Prefix of every reader URL of this portal, without a trailing slash (`/p/acme`, or `` on a custom domain). */
  basePath: string;
  apis: ApiRef[];
  api: ApiRef;
  versions: VersionRef[];
  version: VersionRef;
  canonicalUrl?: string;
  /** The Authorize control (API key once); absent, the page shows none (previews, tests). */
  authorize?: AuthorizeState;
  /** `{{name}}` values for code samples and examples: the reader's own over the live content's defaults. */
  variables?: Record<string, string>;
  /** The reader shell's chrome for this request; absent (tests), a minimal one. */
  chrome?: ShellChrome;
}
