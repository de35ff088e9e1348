/** @module A tiny observable state holder and its Preact hook (the editor's only shared UI state). */
import { useEffect, useState } from "preact/hooks";

export class Store<T extends object> {
  private readonly listeners = new Set<() => void>();
  constructor(public state: T) {}

  /** Merges `patch` into the state and notifies subscribers. */
  set(patch: Partial<T>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Re-renders the calling component whenever the store changes; returns the current state. */
export function useStore<T extends object>(store: Store<T>): T {
  const [, setTick] = useState(0);
  useEffect(() => store.subscribe(() => setTick((n) => n + 1)), [store]);
  return store.state;
}
