/** @module Shapes shared by the server (first render) and the code-sample island (every later render). */

/** A name/value pair as HAR writes them. */
export interface NameValue {
  name: string;
  value: string;
}

/** One server the reader can pick, with its variables (defaults and enums as declared). */
export interface SampleServer {
  /** The URL template as written (`https://{region}.example.com/v1`); relative URLs already made absolute. */
  url: string;
  description?: string;
  variables: Record<string, { default: string; enum?: string[]; description?: string }>;
}

/** Where a credential goes and the placeholder a reader's own key will replace. */
export interface AuthPlaceholder {
  /** The security scheme's name in `components.securitySchemes`. */
  scheme: string;
  placement: "header" | "query" | "cookie";
  /** Header, query parameter or cookie name. */
  name: string;
  /** Full value with the placeholder in it (`Bearer YOUR_TOKEN`). */
  value: string;
  /** The placeholder itself, so a client can swap in a real credential. */
  placeholder: string;
}

/** A request body as the snippet library takes it (HAR `postData`). */
export interface SampleBody {
  mimeType: string;
  text?: string;
  params?: { name: string; value?: string; fileName?: string; contentType?: string }[];
}

/**
 * Everything needed to print a request in any language, except the server choice: the island receives this
 * as JSON props and calls {@link toHar} when the reader picks another server.
 */
export interface SampleInput {
  method: string;
  /** Path with path parameters filled in (examples, else NAME placeholders), query excluded. */
  path: string;
  servers: SampleServer[];
  query: NameValue[];
  headers: NameValue[];
  cookies: NameValue[];
  auth: AuthPlaceholder[];
  body?: SampleBody;
}

/** A HAR request (the subset the snippet library reads). */
export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  headers: NameValue[];
  queryString: NameValue[];
  cookies: NameValue[];
  headersSize: number;
  bodySize: number;
  postData?: SampleBody;
}
