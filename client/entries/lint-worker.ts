/** @module The editor's lint Web Worker (module worker): the lint host wired to `postMessage`. */
import { createLintHost } from "../editor/lint-host";
import { PORTICO_LINT_ENGINE } from "../editor/portico-lint-engine";
import type { FromWorker, ToWorker } from "../editor/protocol";

const scope = self as unknown as { postMessage(m: FromWorker): void; onmessage: ((e: MessageEvent<ToWorker>) => void) | null };
const handle = createLintHost({ engine: PORTICO_LINT_ENGINE, post: (m) => scope.postMessage(m), defer: (task) => setTimeout(task, 0) });
scope.onmessage = (e) => handle(e.data);
