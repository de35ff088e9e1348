/** Types of fake-github.mjs (the stand-in for GitHub's and GitLab's REST API). */
import type { Server } from "node:http";
export const INSTALLATION_TOKEN: string;
export const GITLAB_TOKEN: string;
export const HOSTILE_DOTDOT_SHA: string;
export const HOSTILE_ABSOLUTE_SHA: string;
export interface LoggedCall { method: string; path: string; authorization?: string; body?: unknown }
export function handMadeTarball(entries: [string, string][]): Buffer;
export function startFakeGitHub(options: { repoDir: string; appId: string; publicKey: string; port?: number }): Promise<{ origin: string; server: Server; log: LoggedCall[] }>;
