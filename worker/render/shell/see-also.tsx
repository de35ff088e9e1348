/**
 * @module The cross-links between the guides and the reference, always at the end of `<main>` (on the single-page
 * reference, at the end of each operation's section): an operation's guides, a guide's operations. The same heading level and place on every page, so readers find them.
 */

/**
 * A titled list of links, or nothing when there are none. `level`: its heading's (2 at the end of `<main>`; on the
 * single page, where each operation is an `h3`, 4 at the end of the operation's section).
 */
export function SeeAlso({ id, title, links, level = 2 }: { id: string; title: string; links: { title: string; href: string }[]; level?: 2 | 4 }) {
  if (links.length === 0) return null;
  const H = level === 4 ? "h4" : "h2";
  return (
    <section class="see-also" aria-labelledby={id}>
      <H id={id}>{title}</H>
      <ul>{links.map((l) => <li><a href={l.href}>{l.title}</a></li>)}</ul>
    </section>
  );
}
