/**
 * @module What an HTML page's security headers depend on (its portal's settings, whether it is the editor). A page
 * sets it as `c.var.pagePolicy` (env.ts AppEnv) and http/security-headers.ts turns it into headers; it lives apart
 * from both so that the environment's types do not import the middleware that reads them.
 */

/** What a page's policy depends on: the portal's embed and image settings, and whether it is the editor. */
export interface PagePolicy {
  /** Origins allowed to frame the page (CSP `frame-ancestors`); empty = `'none'`. */
  frameAncestors: readonly string[];
  /** Allow `https:` images (descriptions, guides) from other origins. */
  externalImages: boolean;
  /** The API editor: a Web Worker of ours, never framed whatever the portal allows (it holds a token). */
  editor?: boolean;
  /** A per-response nonce admitting `<style>` elements a page's own script mounts (CodeMirror, in the editor). */
  styleNonce?: string;
  /** Base64 SHA-256 digests of `<style>` elements the server wrote (the brand's design tokens): CSP `'sha256-…'`. */
  styleHashes?: readonly string[];
  /** A stricter referrer policy, for pages whose URL is a secret (content previews): `no-referrer`. */
  referrerPolicy?: "no-referrer";
  /** The CSP of a writer's file served as is (a content bundle's SVG or PDF): sandboxed, set by its route. */
  bodyCsp?: string;
  /**
   * Origins a form of the page may send to (or be redirected to) besides its own, CSP `form-action`: the OAuth consent
   * page's Allow redirects to the client's registered redirect URI.
   */
  formActions?: readonly string[];
}
