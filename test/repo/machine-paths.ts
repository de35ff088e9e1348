/**
 * @module Finds absolute paths of one machine (a home, a workspace, a mount) in the project's tracked files, so
 * a clone in any folder with ../shared beside it keeps working. System paths every Debian machine has
 * (`/usr/bin/chromium`, `/etc/passwd` in hostile-input tests) are not machine paths.
 */

/** Roots that name one machine's layout; a path under one of them breaks on a clone elsewhere. */
const MACHINE_ROOTS = /(?<![\w.~$-])(?:\/(?:work|home|Users|root|mnt|srv|opt|workspace|var\/folders|private\/var)\/[\w.@-]+|[A-Za-z]:\\{1,2}(?:Users|work)\\)/;

/** A line carrying this marker is exempt (for a deliberate hostile path in a test). */
export const EXEMPT_MARKER = "machine-path-ok";

/** One absolute machine path found: 1-based line, the path text. */
export interface MachinePath {
  line: number;
  path: string;
}

/** Every machine path in `text`, in line order. */
export function findMachinePaths(text: string): MachinePath[] {
  const found: MachinePath[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.includes(EXEMPT_MARKER)) return;
    const match = MACHINE_ROOTS.exec(line);
    if (match) found.push({ line: index + 1, path: match[0] });
  });
  return found;
}
