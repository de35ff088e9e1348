/**
 * @module Global setup of the playground's OAuth tests: the real oauth2-mock-server and the resource it protects
 * (test/harness/oauth-servers.ts), handed to the workerd tests with `provide`.
 */
import type { TestProject } from "vitest/node";
import { startOAuthServers, type OAuthServers } from "../harness/oauth-servers";

declare module "vitest" {
  export interface ProvidedContext {
    oauthIssuer: string;
    resourceOrigin: string;
  }
}

let servers: OAuthServers | undefined;

export async function setup(project: TestProject): Promise<void> {
  servers = await startOAuthServers();
  project.provide("oauthIssuer", servers.issuer);
  project.provide("resourceOrigin", servers.resourceOrigin);
}

export async function teardown(): Promise<void> {
  await servers?.stop();
}
