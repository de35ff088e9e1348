/** @module Code samples: request building from the schema view, HAR conversion, and the lazy language registry. */
export type { AuthPlaceholder, HarRequest, NameValue, SampleBody, SampleInput, SampleServer } from "./types";
export { buildSampleInput, preferredMediaType, RECEIVER_URL, type SampleBuild, type SampleOptions } from "./build-input";
export { toHar, type HarChoice } from "./to-har";
export { SAMPLE_LANGUAGES, sampleLanguage, type SampleLanguage, type SnippetPlugin } from "./languages";
export { printSample } from "./print";
export { sampleServers, serverUrl, DEFAULT_ORIGIN } from "./servers";
export { authPlaceholders, withCredential, TOKEN_PLACEHOLDER, API_KEY_PLACEHOLDER, BASIC_PLACEHOLDER } from "./auth";
