/**
 * @module The reader's last calls of one operation, in localStorage (`portico-try-history:{api}:{operationId}`):
 * method, URL without credentials, status and time. Never headers, bodies or credentials.
 */
import { STORAGE_KEYS } from "../types";

/** One call as the history keeps it. */
export interface HistoryEntry {
  /** ISO 8601 time of the send. */
  at: string;
  method: string;
  /** The URL with apiKey query parameters removed. */
  url: string;
  /** HTTP status, or 0 when the proxy refused (then `error` holds its code). */
  status: number;
  error?: string;
  /** Total milliseconds, click to answer. */
  ms: number;
}

/** Entries kept per operation. */
export const HISTORY_MAX = 10;

function key(api: string, operationId: string): string {
  return `${STORAGE_KEYS.tryHistory}:${api}:${operationId}`;
}

/** The operation's history, newest first; [] when storage is unavailable or holds something else. */
export function readHistory(api: string, operationId: string): HistoryEntry[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key(api, operationId)) ?? "[]");
    return Array.isArray(parsed) ? (parsed as HistoryEntry[]).filter((e) => e && typeof e.url === "string").slice(0, HISTORY_MAX) : [];
  } catch {
    return [];
  }
}

/** Adds `entry` first and keeps the last {@link HISTORY_MAX}; returns the new list (unsaved if storage fails). */
export function addHistory(api: string, operationId: string, entry: HistoryEntry): HistoryEntry[] {
  const list = [entry, ...readHistory(api, operationId)].slice(0, HISTORY_MAX);
  try {
    localStorage.setItem(key(api, operationId), JSON.stringify(list));
  } catch {
    // private mode or full: shown for this page only
  }
  return list;
}

/** Forgets the operation's history. */
export function clearHistory(api: string, operationId: string): void {
  try {
    localStorage.removeItem(key(api, operationId));
  } catch {
    // nothing kept anyway
  }
}
