/** @module Page frame pieces shared by every page: footer and the body wrapper. */

/** The footer (landmark `contentinfo`). */
export function Footer() {
  return <footer class="foot"><p>Rendered by Portico from the published OpenAPI definition.</p></footer>;
}
