/** @module All D1 tables (drizzle); migrations/ is generated from these by drizzle-kit. */
export * from "./portals";
export * from "./apis";
export * from "./content";
export * from "./readers";
export * from "./saml";
export * from "./search";
export * from "./changelog";
export * from "./domains";
export * from "./assistant";
export * from "./git";
export * from "./workspace";
export * from "./docs-api";
