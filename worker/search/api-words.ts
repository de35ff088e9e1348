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

/**
 * Two-word phrases readers type for one API verb (phrasal verbs, and "view all" for a listing): phrase →
 * the verbs it stands for. Keys are written `first_second`; they are looked up for adjacent query words.
 */
const PHRASES = `
look_up get retrieve lookup|set_up create configure|spin_up create launch|bring_up create start|tear_down delete destroy
take_down delete remove|clean_up delete purge|wipe_out delete purge|shut_down stop|power_off stop|power_on start
turn_on enable activate|switch_on enable activate|turn_off disable deactivate|switch_off disable deactivate
kick_off start trigger|fire_off send trigger|roll_back revert rollback|back_up backup snapshot|sign_in login authenticate
log_in login authenticate|sign_out logout|log_out logout|sign_up register signup|hook_up connect attach
view_all list|see_all list|show_all list|get_all list|fetch_all list|find_all list|retrieve_all list
`;

function parse(text: string): string[][] {
  return text.split(/[|\n]/).map((l) => l.trim().split(/\s+/).filter(Boolean)).filter((g) => g.length > 1);
}

/**
 * The API verb families ({@link VERB_FAMILIES}) and the phrases standing for them ({@link PHRASES}): word (or
 * `first_second` phrase) → the numbers of the families it belongs to or stands for. An operation does one of these
 * things; its title names which.
 */
export function verbFamilyTable(): Map<string, number[]> {
  const table = new Map<string, number[]>();
  const families = parse(VERB_FAMILIES);
  families.forEach((family, i) => {
    for (const w of family) table.set(w, [...(table.get(w) ?? []), i]);
  });
  for (const [phrase, ...verbs] of parse(PHRASES)) table.set(phrase, [...new Set(verbs.flatMap((v) => table.get(v) ?? []))]);
  return table;
}

/** word (or `first_second` phrase) → related words with the weight of a match through them; abbreviations and verb families are symmetric, phrases one-way. */
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
  // One way only: "look up" stands for "get", but "get" is not a phrase to look for.
  for (const [phrase, ...verbs] of parse(PHRASES)) for (const v of verbs) link(phrase, v, 0.8);
  return table;
}
