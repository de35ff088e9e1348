/**
 * @module The cross-links between the guides and the reference, always at the end of `<main>`: an operation's
 * guides, a guide's operations. The same heading level and place on every page, so readers find them.
 */

/** A titled list of links, or nothing when there are none. */
export function SeeAlso({ id, title, links }: { id: string; title: string; links: { title: string; href: string }[] }) {
  if (links.length === 0) return null;
  return (
    <section class="see-also" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul>{links.map((l) => <li><a href={l.href}>{l.title}</a></li>)}</ul>
    </section>
  );
}
