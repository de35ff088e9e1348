/**
 * @module Hand-written API vocabulary: common abbreviations (repo, org, k8s, db, ...) and the families of CRUD
 * verbs API references use interchangeably (get/retrieve/fetch, delete/remove/destroy, ...). General
 * knowledge of API writing, independent of any one portal; portal-specific relations are mined (mine.ts).
 */

/** Abbreviation → full forms (and back). Single words only: a group alternative is one term. */
const ABBREVIATIONS = `
repo repository|org organization organisation|k8s kubernetes|db database|env environment|config configuration
cfg configuration|auth authentication authorization|authn authentication|authz authorization|msg message
img image|id identifier|info information|app application|doc document|docs documentation|dir directory
param parameter|spec specification|req request|resp response|cert certificate|ssl tls|pw password|pwd password
passwd password|creds credentials|cred credential|admin administrator|perm permission|perms permissions
max maximum|min minimum|num number|pkg package|dev development|prod production|stats statistics|sub subscription
txn transaction|addr address|acct account|desc description|uri url|ws websocket|notif notification
ns namespace|attr attribute|var variable|eval evaluation|sched schedule|chan channel|ts timestamp|tz timezone
temp temporary|ver version|mem memory|sync synchronize|async asynchronous|impl implementation|lib library
util utility|mfa 2fa|sso saml|jwt token|vm instance server|colour color|behaviour behavior
`;

/** Verb families: any member may stand for any other. */
const VERB_FAMILIES = `
get retrieve fetch read show view describe lookup obtain
list enumerate browse
create add new make insert register provision
update modify edit change patch alter amend
delete remove destroy erase drop purge discard
cancel abort stop terminate halt
start run execute launch trigger invoke begin
search find query filter
send post publish submit dispatch
enable activate|disable deactivate|attach assign link|detach unassign unlink
`;

function parse(text: string): string[][] {
  return text.split(/[|\n]/).map((l) => l.trim().split(/\s+/).filter(Boolean)).filter((g) => g.length > 1);
}

/** word → related words with the weight of a match through them; both lists are symmetric. */
export function apiWordTable(): Map<string, Map<string, number>> {
  const table = new Map<string, Map<string, number>>();
  const link = (a: string, b: string, w: number) => {
    if (a === b) return;
    let m = table.get(a);
    if (!m) table.set(a, (m = new Map()));
    m.set(b, Math.max(m.get(b) ?? 0, w));
  };
  for (const [abbr, ...full] of parse(ABBREVIATIONS)) {
    for (const f of full) {
      link(abbr, f, 0.9);
      link(f, abbr, 0.9);
    }
  }
  for (const family of parse(VERB_FAMILIES)) for (const a of family) for (const b of family) link(a, b, 0.7);
  return table;
}
