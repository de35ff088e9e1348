/** @module Where the demo's Git sync lives (npm start connects it, npm run demo:git replays webhooks against it). */

/** Port of the local stand-in for GitHub's API while `npm run demo:git` runs. */
export const GIT_STANDIN_PORT = 4012;

/** The demo repository: its folder (under the project root), name, and the app installation it is "installed" in. */
export const DEMO_GIT = { dir: ".wrangler/demo-git", repository: "portico-demo/parcel-docs", installationId: 1 };
