/**
 * @module The languages code samples offer, as a lazy registry: metadata only, each generator imported on
 * first use (islands load one target at a time). All come from @scalar/snippetz; none needed a local target.
 */

/** The generator contract of a snippetz plugin. */
export interface SnippetPlugin {
  target: string;
  client: string;
  title: string;
  generate(request: unknown, configuration?: unknown): string;
}

/** One language tab: a default client of the snippet library for that language. */
export interface SampleLanguage {
  /** `target/client`, e.g. `shell/curl`. */
  id: string;
  /** Tab label. */
  label: string;
  /** Code-block language hint (for highlighting and the `data-lang` attribute). */
  syntax: string;
  load(): Promise<SnippetPlugin>;
}

/** In tab order; the first is the default (and the one rendered on the server). */
export const SAMPLE_LANGUAGES: SampleLanguage[] = [
  { id: "shell/curl", label: "cURL", syntax: "shell", load: () => import("@scalar/snippetz/plugins/shell/curl").then((m) => m.shellCurl) },
  { id: "python/requests", label: "Python", syntax: "python", load: () => import("@scalar/snippetz/plugins/python/requests").then((m) => m.pythonRequests) },
  { id: "node/fetch", label: "Node.js", syntax: "javascript", load: () => import("@scalar/snippetz/plugins/node/fetch").then((m) => m.nodeFetch) },
  { id: "js/fetch", label: "JavaScript", syntax: "javascript", load: () => import("@scalar/snippetz/plugins/js/fetch").then((m) => m.jsFetch) },
  { id: "go/native", label: "Go", syntax: "go", load: () => import("@scalar/snippetz/plugins/go/native").then((m) => m.goNative) },
  { id: "ruby/native", label: "Ruby", syntax: "ruby", load: () => import("@scalar/snippetz/plugins/ruby/native").then((m) => m.rubyNative) },
  { id: "java/okhttp", label: "Java", syntax: "java", load: () => import("@scalar/snippetz/plugins/java/okhttp").then((m) => m.javaOkhttp) },
  { id: "csharp/httpclient", label: "C#", syntax: "csharp", load: () => import("@scalar/snippetz/plugins/csharp/httpclient").then((m) => m.csharpHttpclient) },
  { id: "php/guzzle", label: "PHP", syntax: "php", load: () => import("@scalar/snippetz/plugins/php/guzzle").then((m) => m.phpGuzzle) },
  { id: "swift/nsurlsession", label: "Swift", syntax: "swift", load: () => import("@scalar/snippetz/plugins/swift/nsurlsession").then((m) => m.swiftNsurlsession) },
  { id: "kotlin/okhttp", label: "Kotlin", syntax: "kotlin", load: () => import("@scalar/snippetz/plugins/kotlin/okhttp").then((m) => m.kotlinOkhttp) },
  { id: "rust/reqwest", label: "Rust", syntax: "rust", load: () => import("@scalar/snippetz/plugins/rust/reqwest").then((m) => m.rustReqwest) },
  { id: "dart/http", label: "Dart", syntax: "dart", load: () => import("@scalar/snippetz/plugins/dart/http").then((m) => m.dartHttp) },
  { id: "powershell/restmethod", label: "PowerShell", syntax: "powershell", load: () => import("@scalar/snippetz/plugins/powershell/restmethod").then((m) => m.powershellRestmethod) },
  { id: "shell/httpie", label: "HTTPie", syntax: "shell", load: () => import("@scalar/snippetz/plugins/shell/httpie").then((m) => m.shellHttpie) },
  { id: "c/libcurl", label: "C", syntax: "c", load: () => import("@scalar/snippetz/plugins/c/libcurl").then((m) => m.cLibcurl) },
  { id: "objc/nsurlsession", label: "Objective-C", syntax: "objectivec", load: () => import("@scalar/snippetz/plugins/objc/nsurlsession").then((m) => m.objcNsurlsession) },
  { id: "http/http1.1", label: "HTTP", syntax: "http", load: () => import("@scalar/snippetz/plugins/http/http11").then((m) => m.httpHttp11) },
];

/** The language with `id`, or undefined. */
export function sampleLanguage(id: string): SampleLanguage | undefined {
  return SAMPLE_LANGUAGES.find((l) => l.id === id);
}
