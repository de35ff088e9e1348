/** @module The page's side of the lint Web Worker: posting edits, receiving problems, request/response calls. */
import type { FromWorker, ToWorker } from "./protocol";

type Request = Extract<ToWorker, { id: number }>;
type Reply<T extends FromWorker["type"]> = Extract<FromWorker, { type: T }>;

export class WorkerClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: FromWorker) => void>();

  /**
   * @param url The bundled worker (`/assets/lint-worker.js`, an ES module: esbuild splits chunks).
   * @param onProblems Called with every lint result, in order.
   */
  constructor(url: string, private readonly onProblems: (m: Reply<"problems">) => void, onError: (message: string) => void) {
    this.worker = new Worker(url, { type: "module" });
    this.worker.onmessage = (e: MessageEvent<FromWorker>) => {
      const m = e.data;
      if (m.type === "problems") return this.onProblems(m);
      const resolve = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      resolve?.(m);
    };
    this.worker.onerror = (e) => onError(e.message || "the lint worker failed");
  }

  /** `transfer`: buffers moved to the worker (an opened definition's bytes). */
  post(message: Extract<ToWorker, { type: "open" | "edit" }>, transfer: Transferable[] = []): void {
    this.worker.postMessage(message, transfer);
  }

  request<T extends Request["type"]>(message: Omit<Extract<Request, { type: T }>, "id">): Promise<Reply<T>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve as (r: FromWorker) => void);
      this.worker.postMessage({ ...message, id });
    });
  }

  terminate(): void {
    this.worker.terminate();
  }
}
