/**
 * @module Global setup of the Git sync tests (Node): a real git repository of the demo made for the run (main,
 * a feature branch with findings, a branch holding a symbolic link, a branch too large to sync, a release tag),
 * the stand-in for GitHub's and GitLab's REST API serving it (scripts/lib/fake-github.mjs), and the webhook
 * payloads of `@octokit/webhooks-examples` the tests rewrite and sign. Handed to the workerd tests with `provide`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { parseDocument } from "yaml";
import { startFakeGitHub } from "../../scripts/lib/fake-github.mjs";
import { addFeatureBranch, commitOnBranch, commitSymlink, createDemoRepository, tag } from "../../scripts/lib/demo-repository.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    gitFake: {
      origin: string;
      main: string;
      feature: { sha: string; branch: string; definition: string; guide: string };
      symlink: string;
      huge: string;
      release: { tag: string; sha: string };
      /** A commit that changes the definition (info.version 3.0.0) and the tracking guide ("Atomic release marker."). */
      both: string;
      examples: { push: Record<string, unknown>; pullRequestOpened: Record<string, unknown>; pullRequestClosed: Record<string, unknown>; release: Record<string, unknown> };
    };
  }
}

type Example = { name: string; examples: Record<string, unknown>[] };

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "portico-git-"));
  const main = createDemoRepository(dir);
  const feature = addFeatureBranch(dir);
  const symlink = commitSymlink(dir, "evil-symlink", "docs/guides/secrets.md", "/etc/passwd");
  // 40 MiB of zeros: a few KiB in git and in the tarball, far past what a sync inflates.
  const huge = commitOnBranch(dir, "huge", { "assets/blob.bin": Buffer.alloc(40 * 1024 * 1024) }, "a huge file");
  const doc = parseDocument(readFileSync(join(dir, "openapi/parcel.yaml"), "utf8"));
  doc.setIn(["info", "version"], "2.5.0");
  doc.setIn(["paths", "/shipments", "get", "deprecated"], true);
  commitOnBranch(dir, "release-2.5", { "openapi/parcel.yaml": String(doc) }, "2.5.0");
  const releaseSha = tag(dir, "v2.5.0", "release-2.5");
  // A commit changing both the definition (3.0.0) and a guide (a marker line), for the atomic release tests.
  doc.setIn(["info", "version"], "3.0.0");
  const tracking = readFileSync(join(dir, "docs/guides/tracking.md"), "utf8").replace(/\n*$/, "\n") + "\nAtomic release marker.\n";
  const both = commitOnBranch(dir, "both-parts", { "openapi/parcel.yaml": String(doc), "docs/guides/tracking.md": tracking }, "3.0.0 and a guide");
  const fake = await startFakeGitHub({ repoDir: dir, appId: "424242", publicKey: process.env.PORTICO_TEST_GITHUB_APP_PUBLIC_KEY ?? "" });
  const require = createRequire(import.meta.url);
  const all = require("@octokit/webhooks-examples/api.github.com/index.json") as Example[];
  const of = (name: string, action?: string) => all.find((e) => e.name === name)!.examples.find((x) => action === undefined || x.action === action)!;
  project.provide("gitFake", {
    origin: fake.origin, main, feature, symlink, huge, release: { tag: "v2.5.0", sha: releaseSha }, both,
    examples: { push: of("push"), pullRequestOpened: of("pull_request", "opened"), pullRequestClosed: of("pull_request", "closed"), release: of("release", "published") },
  });
  return async () => {
    await new Promise((resolve) => fake.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  };
}
