/** @module Applies migrations/ to the test D1 before each test file (storage is isolated per file). */
import { applyD1Migrations, env } from "cloudflare:test";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
