/** @module Shared by the closed island and the open panel (kept apart so the closed island stays tiny). */

/** sessionStorage key: the spec URL of the panel that sent the reader to an authorization server (no credentials). */
export const REOPEN_KEY = "portico-try-reopen";
