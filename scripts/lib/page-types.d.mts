/** Types of page-types.mjs (a plain ES module the benchmarks import too). */
export function readerPageTypes(where: { portal: string; single: string; api: string; version: string; singleApi: string; singleVersion: string }): [string, string][];
export function dashboardPageTypes(where: { org: string; portal: string; api: string; version: string }): [string, string][];
