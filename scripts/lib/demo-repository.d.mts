/** Types of demo-repository.mjs (the demo's Git repository). */
export const DEMO_PATHS: { definitions: { api: string; file: string }[]; content: string };
export function createDemoRepository(dir: string): string;
export function addFeatureBranch(dir: string, branch?: string): { sha: string; branch: string; definition: string; guide: string };
export function commitOnBranch(dir: string, branch: string, files: Record<string, string | Buffer>, message?: string): string;
export function commitSymlink(dir: string, branch: string, link: string, target: string): string;
export function tag(dir: string, name: string, ref?: string): string;
