import { describe, expect, it } from "vitest";
import { stem } from "./analyze";
import { buildSearchIndex, loadSearchIndex, type SearchDocument, type SearchOptions } from "./index";

const all = () => true;
const doc = (id: string, title: string, body = "", extra: Partial<SearchDocument> = {}): SearchDocument => ({
  id, kind: "operation", title, body, url: `/x/${id}`, locale: "en", labels: [], ...extra,
});
const engine = (docs: SearchDocument[]) => loadSearchIndex(buildSearchIndex(docs));
const ids = (q: string, docs: SearchDocument[], opts: Partial<SearchOptions> = {}) =>
  engine(docs).search(q, { canRead: all, ...opts }).results.map((r) => r.doc.id);

const API = [
  doc("msg", "chat_postMessage", "Sends a message to a channel.", { fields: { operationId: "chat_postMessage" } }),
  doc("toll", "ListAvailablePhoneNumberTollFree", "Toll-free numbers you can buy."),
  doc("content", "Get repository content", "Gets the contents of a file.", { fields: { path: "/repos/{owner}/{repo}/contents/{path}", operationId: "repos/get-content" } }),
  doc("remove", "admin.users.remove", "Removes a user from a workspace."),
  doc("groups", "admin.usergroups.removeChannels", "Removes channels from a user group."),
  doc("v251", "Changelog › Version 2.5.1", "Fixes.", { kind: "changelog" }),
  doc("v215", "Changelog › Version 2.1.5", "Fixes.", { kind: "changelog" }),
  doc("fw", "Create a New Firewall", "Creates a firewall for droplets.", { fields: { operationId: "firewalls_create" } }),
  doc("dropdel", "Delete a Droplet", "Deletes a droplet by id.", { fields: { operationId: "droplets_destroy", parameters: ["droplet_id"] } }),
  doc("orgs", "List organization members", "Lists the members of an organization."),
  doc("k8s", "Create a Kubernetes Cluster", "Creates a cluster."),
  doc("sizes", "List Droplet Sizes", "Sizes available.", { fields: { enums: ["s-1vcpu-1gb", "gpu-h100x1"], properties: ["memory", "vcpus"] } }),
];

describe("ranking", () => {
  it("finds identifiers by their parts, joined, or as typed", () => {
    expect(ids("post message", API)[0]).toBe("msg");
    expect(ids("postmessage", API)[0]).toBe("msg");
    expect(ids("chat_postMessage", API)[0]).toBe("msg");
    expect(ids("phone number toll free", API)[0]).toBe("toll");
    expect(ids("repos/get-content", API)[0]).toBe("content");
    expect(ids("admin.users.remove", API)[0]).toBe("remove");
    expect(ids("GET /repos/{owner}/{repo}/contents", API)[0]).toBe("content");
  });

  it("keeps version numbers whole", () => {
    expect(ids("version 2.5.1", API)[0]).toBe("v251");
    expect(ids("changelog 2.1.5", API)[0]).toBe("v215");
  });

  it("finds a version whichever way it is written or typed (v2.3.0, 2.3.0, v2 3.0, a beta suffix, 2.3 being typed)", () => {
    // Release notes titled the way teams title them; the other entries share the version's digits in other orders.
    const notes = [
      doc("v230", "Parcel API v2.3.0", "Label voiding.", { kind: "changelog" }),
      doc("v203", "Parcel API v2.0.3", "Fixes.", { kind: "changelog" }),
      doc("v320", "Parcel API v3.2.0", "Pickups.", { kind: "changelog" }),
      doc("b240", "Parcel API 2.4.0-beta.1", "Returns.", { kind: "changelog" }),
      doc("b204", "Parcel API 2.0.4-beta.2", "Fixes.", { kind: "changelog" }),
      doc("ops", "List parcels", "Lists parcels, 20 per page, API 2 and 3."),
    ];
    for (const q of ["v2.3.0", "2.3.0", "parcel api v2.3.0", "v2 3.0", "api v2 3.0", "version 2.3.0"]) expect(ids(q, notes)[0], q).toBe("v230");
    expect(ids("parcel 2.3", notes)[0]).toBe("v230");
    for (const q of ["2.4.0 beta", "2.4.0", "parcel api 2.4.0 beta 1"]) expect(ids(q, notes)[0], q).toBe("b240");
    // Written without the "v", typed with it.
    expect(ids("v2.5.1", API)[0]).toBe("v251");
    // Marked as written, as one span.
    const hit = engine([doc("n", "Parcel API v2.3.0", "Release v2.3.0 adds label voiding.", { kind: "changelog" })]).search("2.3.0", { canRead: all }).results[0];
    expect(hit.snippet).toBe("Release <mark>v2.3.0</mark> adds label voiding.");
  });

  it("prefers a title with the typed word itself to one with a word sharing only its stem (customer for custom)", () => {
    // Porter's stems join custom/customer, attach/attached, void/voiding; the index order puts the sibling first.
    const docs = [
      doc("customer", "Add or edit customer attributes", "Sets attributes of a customer."),
      doc("custom", "Add or edit custom user attributes", "Sets custom attributes of a user."),
      doc("sets", "Sets the tags attached to an order", "Tags of an order."),
      doc("attach", "Attach one or more tags to an order", "Tags of an order."),
      doc("guide", "Voiding a label", "How to void shipping labels.", { kind: "guide", section: "Shipping orders with labels" }),
      doc("entry", "Void shipping labels", "Labels can be voided.", { kind: "changelog" }),
    ];
    expect(ids("custom attributes ", docs)[0]).toBe("custom");
    expect(ids("attach tags order", docs)[0]).toBe("attach");
    expect(ids("void shipping", docs)[0]).toBe("entry");
    // The word being typed may be the start of its sibling: not judged ("attach" being typed may become "attached").
    expect(ids("tags attach", docs).slice(0, 2).sort()).toEqual(["attach", "sets"]);
  });

  it("prefers the operation whose title leads with the query's verb among operations on the same things", () => {
    // The three share every noun and say "shows" (a WordNet synonym of "read", rarer than the common "get"); by
    // scores alone the index order decides.
    const items = "Items are movies, shows or episodes";
    const docs = [
      doc("remove", "Remove items from personal list", `${items}.`),
      doc("add", "Add items to personal list", `${items}.`),
      doc("get", "Get items on a personal list", `${items} of the list.`),
      ...["user", "order", "shipment", "label", "product", "invoice", "customer", "webhook"].map((x) => doc(x, `Get a ${x}`, `Returns a ${x}.`)),
    ];
    expect(ids("read items personal", docs)[0]).toBe("get");
    // A title leading with two verbs does both ("Add or edit").
    const attributes = [doc("both", "Add or edit customer attributes", "Sets attributes of a customer."), doc("del", "Delete customer attributes", "Deletes attributes of a customer.")];
    expect(ids("modify customer attributes", attributes)[0]).toBe("both");
  });

  it("completes the word being typed, without letting a rare completion beat the typed word", () => {
    expect(ids("toll fr", API)[0]).toBe("toll");
    expect(ids("kubernetes clu", API)[0]).toBe("k8s");
    expect(ids("admin users remove", API)[0]).toBe("remove");
  });

  it("reads a stopword being typed as the start of a longer word", () => {
    const docs = [
      doc("orders", "List orders", "Lists orders, newest first.", { fields: { operationId: "listOrders" } }),
      doc("items", "List order items", "Lists the items of one order.", { fields: { operationId: "listOrderItems" } }),
      doc("checkin", "Check into an item", "Checks the user into a show."),
      doc("checkout", "Check out", "Checks the user out."),
    ];
    expect(ids("list order it", docs)[0]).toBe("items");
    expect(ids("check in", docs)[0]).toBe("checkin");
    // Typed to its end, the stopword is a stopword again.
    expect(ids("list order it ", docs)[0]).toBe("orders");
  });

  it("does not join a word being typed onto the word before when the join folds back into that word", () => {
    // "credential" + "li" → "credentialli", which stems to credenti: every credential would match "li" for free.
    const docs = [
      doc("cred", "Update a credential", "Updates a credential: the credential username and the credential password, and the credential realm."),
      doc("list", "Update a Credential List", "Updates a list."),
      doc("users", "List users", "Lists users."),
      doc("domains", "List domains", "Lists domains."),
      doc("calls", "List calls", "Lists calls."),
      doc("domain", "Update a domain", "Updates a domain."),
    ];
    expect(ids("update credential li", docs)[0]).toBe("list");
  });

  it("completes a word being typed with a typo in it", () => {
    expect(ids("create kubenr", API)[0]).toBe("k8s");
    expect(ids("list orgna", API)[0]).toBe("orgs");
  });

  it("prefers a document naming every query word in its title to one whose body holds the words its title lacks", () => {
    const docs = [
      doc("target", "Delete a Node Pool", "Deletes the pool and its nodes.", { fields: { operationId: "pools_delete" } }),
      doc("other", "Add a Node Pool", "Adds a pool. Its worker nodes run your workloads; delete it with the delete endpoint.", { fields: { operationId: "pools_add" } }),
      doc("filler", "List Nodes", "Lists nodes."),
    ];
    expect(ids("delete worker pool", docs)[0]).toBe("target");
  });

  it("counts a synonym in the title rather than a rarer one in the body", () => {
    const docs = [
      doc("end", "calls_end", "Ends a call. Register the call first.", { fields: { operationId: "calls_end" } }),
      doc("add", "calls_add", "Registers a call with the workspace, so that it shows in channels and in clients with its title, its join link and its participants.", { fields: { operationId: "calls_add" } }),
      // "add" is common in this portal, "register" rare: a body match of "register" outscores a title "add".
      ...Array.from({ length: 4 }, (_, i) => doc(`f${i}`, `add item ${i}`, "Adds it.")),
    ];
    expect(ids("calls insert", docs)[0]).toBe("add");
  });

  it("lets a loose thesaurus synonym in a title cover little of the query word", () => {
    const docs = [
      doc("rec", "Changes the status of the recording to paused, stopped, or in-progress", "Pass the recording sid.", { fields: { operationId: "recordings_stop" } }),
      doc("deploy", "Cancel a Deployment", "Cancels the build of a deployment that is still running.", { fields: { operationId: "deployments_cancel" } }),
      doc("other", "List Deployments", "Lists deployments."),
      ...["imports", "exports", "backups"].map((x) => doc(x, `Get the progress of ${x}`, `Shows how far ${x} are.`)),
    ];
    // "build" ~ "progress" is a WordNet relation of little weight; the exact word in the body says more.
    expect(ids("abort build", docs)[0]).toBe("deploy");
  });

  it("reads two-word verbs as the API verb they stand for", () => {
    const docs = [
      doc("list", "List Routers", "Lists routers.", { fields: { operationId: "routers_list" } }),
      doc("view", "View a Router", "Shows all of a router's settings.", { fields: { operationId: "routers_view" } }),
      doc("enable", "Enable Backups", "Turns backups on.", { fields: { operationId: "backups_enable" } }),
      doc("disable", "Disable Backups", "Stops backups.", { fields: { operationId: "backups_disable" } }),
    ];
    expect(ids("view all routers", docs)[0]).toBe("list");
    expect(ids("turn on backups", docs)[0]).toBe("enable");
    expect(ids("switch off backups", docs)[0]).toBe("disable");
  });

  it("corrects a two-letter word missing a letter, and two swaps in a long word", () => {
    const docs = [
      doc("other", "Bandwidth", "Bandwidth of an app."),
      doc("bw", "Get Droplet Bandwidth", "Bandwidth figures."),
      doc("pw", "Update password", "Changes the password."),
      doc("params", "Update parameters", "Changes the parameters."),
    ];
    expect(ids("gt bandwidth", docs)[0]).toBe("bw");
    expect(ids("update paaremters", docs)[0]).toBe("params");
  });

  it("corrects typos against the index's own vocabulary", () => {
    expect(ids("mesage", API)[0]).toBe("msg");
    expect(ids("fierwall", API)[0]).toBe("fw");
    expect(ids("kuberntes cluster", API)[0]).toBe("k8s");
  });

  it("matches stems: plural, -ing and -ed forms", () => {
    expect(ids("firewalls", API)[0]).toBe("fw");
    expect(ids("deleting droplets", API)[0]).toBe("dropdel");
  });

  it("matches irregular forms Porter's rules miss: -us/-is plurals, -ices, irregular plurals and past forms", () => {
    const docs = [
      doc("seed", "List seed messages"),
      doc("sent", "List sent messages"),
      doc("statuses", "List delivery statuses"),
      doc("aliases", "Delete email aliases"),
      doc("indices", "Retrieve cluster indices"),
      doc("children", "List children of a folder"),
      doc("analyze", "Analyze a text"),
      doc("analyses", "Run text analyses"),
    ];
    // Not the last word (which is completed as a prefix), and with a one-edit competitor ("seed") for "send".
    expect(ids("send messages", docs)[0]).toBe("sent");
    expect(ids("status delivery", docs)[0]).toBe("statuses");
    expect(ids("alias email", docs)[0]).toBe("aliases");
    expect(ids("index cluster", docs)[0]).toBe("indices");
    expect(ids("child folder", docs)[0]).toBe("children");
    expect(ids("analysis text", docs)[0]).toBe("analyses");
    for (const [form, base] of [["statuses", "status"], ["aliases", "alias"], ["indices", "index"], ["children", "child"], ["sent", "send"], ["written", "write"], ["analyses", "analysis"]]) {
      expect(stem(form), form).toBe(stem(base));
    }
    // Forms that are words of their own keep their own stems.
    expect(stem("found")).not.toBe(stem("find"));
    expect(stem("bases")).toBe(stem("base"));
  });

  it("tolerates wrong nouns and verbs through synonyms", () => {
    expect(ids("remove droplet", API)[0]).toBe("dropdel"); // API verb family
    expect(ids("erase droplet", API)[0]).toBe("dropdel"); // general thesaurus
    expect(ids("org members", API)[0]).toBe("orgs"); // abbreviation
    expect(ids("k8s cluster", API)[0]).toBe("k8s");
    expect(ids("repo content", API)[0]).toBe("content");
  });

  it("uses synonyms mined from the portal's own operationIds and summaries", () => {
    // "zap" (operationIds) and "kick" (summaries) name one action twice: the pair is mined, so "zap caller"
    // finds an operation that says neither "zap" nor anything else the query has but "caller".
    const docs = [
      doc("a", "Kick a participant", "", { fields: { operationId: "ZapParticipant" } }),
      doc("b", "Kick a member", "", { fields: { operationId: "ZapMember" } }),
      doc("c", "Zap the cache", "", { fields: { operationId: "ClearCache" } }),
      doc("target", "Kick a caller", "", { fields: { operationId: "CallerEject" } }),
      doc("guide", "Caller overview", "Callers join conferences.", { kind: "guide" }),
    ];
    const r = engine(docs).search("zap caller", { canRead: all });
    expect(r.results[0].doc.id).toBe("target");
    expect(r.results[0].snippet).toBe("");
  });

  it("searches parameters, properties and enum values", () => {
    expect(ids("vcpus", API)[0]).toBe("sizes");
    expect(ids("gpu-h100x1", API)[0]).toBe("sizes");
    expect(ids("droplet_id", API)[0]).toBe("dropdel");
  });

  it("finds a word the portal writes as one when the reader types two", () => {
    const docs = [doc("db", "Create a database"), doc("data", "Export data"), doc("base", "Base images")];
    expect(ids("create data base", docs)[0]).toBe("db");
  });

  it("expands two-word phrases and adjective clusters from the thesaurus", () => {
    const docs = [doc("eph", "Post an ephemeral message"), doc("perm", "Post a message"), doc("consult", "Consult the records"), doc("up", "Records going up")];
    expect(ids("post temporary message", docs)[0]).toBe("eph");
    expect(ids("look up records", docs)[0]).toBe("consult");
  });

  it("answers questions by their content words", () => {
    expect(ids("how do i delete a droplet?", API)[0]).toBe("dropdel");
    expect(ids("is there an api to create a firewall", API)[0]).toBe("fw");
  });

  it("ranks the reader's own word above a synonym in a shorter title", () => {
    const docs = [doc("patch", "Patch a conference"), doc("update", "Update a conference participant status record")];
    expect(ids("update conference", docs)).toEqual(["update", "patch"]);
  });

  it("prefers the tighter title among near-duplicates", () => {
    const docs = [doc("long", "Retrieve an Invoice Summary by UUID"), doc("short", "Retrieve an Invoice by UUID")];
    expect(ids("retrieve invoice uuid", docs)[0]).toBe("short");
    expect(ids("retrieve invoice summary uuid", docs)[0]).toBe("long");
  });

  it("measures a section's tightness by its own heading, not by the page title it sits under", () => {
    // Two guide sections: one's heading says every query word; the other's says one, and it inherits the rest
    // from its page's title (its section field) while its text repeats them.
    const guide = (id: string, heading: string, page: string, body: string) => doc(id, heading, body, { kind: "guide", section: page });
    const docs = [
      guide("own", "Pruning Tomato Trellis Seedlings", "Greenhouse Handbook", "Cut the side growth back."),
      guide("inherited", "Why Prune Early?", "Tomato Trellis Seedlings", "Tomato trellis seedlings grow fast. Tomato trellis seedlings need room. Pruned early, tomato trellis seedlings fruit sooner."),
      guide("other", "Watering Schedules", "Greenhouse Handbook", "Water the beds at dawn."),
    ];
    expect(ids("pruning tomato trellis seedlings", docs)[0]).toBe("own");
    // The inherited words still find the section: it is second, not dropped.
    expect(ids("pruning tomato trellis seedlings", docs)[1]).toBe("inherited");
  });

  it("finds an operation by a word only its tag's description says, below one that says it itself", () => {
    const about = "Mailboxes are the inboxes of a tenant: create and modify them one at a time.";
    const docs = [
      doc("app", "Update an App", "Updates an app's spec.", { fields: { operationId: "apps_update", tag: "Apps" } }),
      doc("upd", "Update a Mailbox", "Updates a mailbox.", { fields: { operationId: "mailboxes_update", tag: "Mailboxes", context: about } }),
      doc("del", "Delete a Mailbox", "Deletes a mailbox.", { fields: { operationId: "mailboxes_delete", tag: "Mailboxes", context: about } }),
      doc("rule", "Get an Inbox Rule", "Returns the rule.", { fields: { operationId: "rules_get", tag: "Rules" } }),
    ];
    // "inbox" is in no mailbox operation's own text but their tag's: it decides between two updates.
    expect(ids("update inbox", docs)[0]).toBe("upd");
    expect(ids("modify inboxes", docs)[0]).toBe("upd");
    // A document naming the word itself still comes first.
    expect(ids("inbox", docs)[0]).toBe("rule");
    expect(ids("inbox", docs)).toContain("del");
    // The context is searched, never stored or shown.
    const hit = engine(docs).search("inbox", { canRead: all }).results.find((r) => r.doc.id === "upd")!;
    expect(hit.doc.fields?.context).toBeUndefined();
    expect(hit.snippet).not.toContain("inbox");
  });

  it("reads a dictionary word the portal does not use as another word for the thing rather than a typo", () => {
    // "halt" is one edit from "hall" (in the portal) and an API verb of the family of "stop" (in the portal).
    const docs = [doc("hall", "Hall of fame entries"), doc("stop", "Stop a job")];
    expect(ids("halt", docs)[0]).toBe("stop");
    // A non-word is still a typo of the portal's word.
    expect(ids("stpo", docs)[0]).toBe("stop");
    expect(ids("hsll", docs)[0]).toBe("hall");
  });
});

describe("results", () => {
  it("marks matches in an HTML-escaped snippet", () => {
    const [hit] = engine([doc("x", "Post", "Use <b>chat.postMessage</b> & friends to post.")]).search("post message", { canRead: all }).results;
    expect(hit.snippet).toBe("Use &lt;b&gt;chat.<mark>post</mark><mark>Message</mark>&lt;/b&gt; &amp; friends to <mark>post</mark>.");
  });

  it("drops the tail that matches less than half as much of the query as the best match", () => {
    const docs = [doc("all", "Delete droplet snapshot backups"), doc("two", "Delete droplet"), doc("one", "Delete volume")];
    const r = engine(docs).search("delete droplet snapshot backup", { canRead: all });
    expect(r.results.map((h) => h.doc.id)).toEqual(["all", "two"]);
    expect(r.total).toBe(2);
  });

  it("respects limit and counts every match in total", () => {
    const docs = Array.from({ length: 30 }, (_, i) => doc(`d${i}`, `Widget ${i}`));
    const r = engine(docs).search("widget", { canRead: all, limit: 5 });
    expect(r.results).toHaveLength(5);
    expect(r.total).toBe(30);
  });

  it("filters by kind and locale", () => {
    const docs = [doc("en", "Webhooks guide", "", { kind: "guide" }), doc("fr", "Guide des webhooks", "", { kind: "guide", locale: "fr-CA" }), doc("op", "Create webhook")];
    expect(ids("webhooks", docs, { kind: "guide" }).sort()).toEqual(["en", "fr"]);
    expect(ids("webhooks", docs, { locale: "fr" })).toEqual(["fr"]);
    expect(ids("webhooks", docs, { kind: "operation,changelog" })).toEqual(["op"]);
    const r = engine(docs).search("webhooks", { canRead: all, kind: "operation" });
    expect(r).toMatchObject({ total: 1, facets: { kind: { guide: 2, operation: 1 } } });
  });

  it("searches every locale together, preferring the reader's", () => {
    const docs = [
      doc("en-hooks", "Webhooks", "Receive events.", { kind: "guide" }),
      doc("fr-hooks", "Webhooks", "Recevoir des événements.", { kind: "guide", locale: "fr" }),
      doc("en-only", "Webhook retries", "Retries of failed webhooks.", { kind: "guide" }),
    ];
    expect(ids("webhooks", docs, { preferLocale: "fr" })[0]).toBe("fr-hooks");
    expect(ids("webhooks", docs, { preferLocale: "en" })[0]).toBe("en-hooks");
    // Fallback: the page only written in English is found by a French reader.
    expect(ids("retries", docs, { preferLocale: "fr" })).toEqual(["en-only"]);
  });

  it("corrects a word the portal uses rarely toward a common near word", () => {
    const nouns = Array.from({ length: 24 }, (_, i) => `things${i}`);
    const docs = [doc("typo", "Code sample", "for x in lsit: print(x)"), doc("delw", "Delete widgets"), doc("widgets", "List widgets"), ...nouns.map((n) => doc(n, `List ${n}`))];
    expect(ids("lsit widgets ", docs)[0]).toBe("widgets");
  });

  it("corrects a form the portal never writes, found only through a rarer stem, toward a common near word", () => {
    // "rolles" stems to "roll", which the portal has ("rolled back", "rolling restart"); the reader meant "roles",
    // which it uses far more. Typed last (no trailing space) and finished (a space) alike.
    const docs = [
      doc("rollback", "Get deploy status", "A deploy that failed is rolled back."),
      doc("restart", "Restart nodes", "A rolling restart of the nodes."),
      doc("grouproles", "Request list of roles assigned to the group", "Roles of the group."),
      doc("userroles", "Request roles of a user", "Roles of a user."),
      doc("setroles", "Set roles of a group", "Replaces the roles."),
      doc("groups", "Request list of groups", "Groups of users."),
    ];
    expect(ids("request list rolles", docs)[0]).toBe("grouproles");
    expect(ids("request list rolles ", docs)[0]).toBe("grouproles");
    // A form the portal writes keeps its own meaning: "rolled" is not corrected to "roles".
    expect(ids("deploy rolled", docs)[0]).toBe("rollback");
  });

  it("suggests a corrected query", () => {
    expect(engine(API).search("fierwall", { canRead: all }).suggestions).toEqual(["firewall"]);
  });
});

describe("reader filtering happens before ranking and counting", () => {
  const docs = [
    doc("pub", "Public widgets", "Widgets for everyone."),
    doc("priv", "Zorblax widgets", "The zorblax is internal.", { labels: ["staff"] }),
    doc("priv2", "Zorblaxes overview", "More zorblax.", { labels: ["staff"] }),
  ];
  const index = engine(docs);
  const reader = (labels: string[]) => labels.length === 0;
  const staff = () => true;

  it("never shows, counts or suggests a private document's words to a reader without access", () => {
    for (const q of ["zorblax", "zorbla", "zorblaz", "zorblax widgets", "widgets", "zor"]) {
      const r = index.search(q, { canRead: reader });
      expect(JSON.stringify(r)).not.toMatch(/zorblax/i);
      expect(r.results.every((h) => h.doc.id === "pub")).toBe(true);
      expect(r.total).toBe(r.results.length);
      expect(Object.values(r.facets?.kind ?? {}).reduce((a, b) => a + b, 0)).toBe(r.total);
    }
  });

  it("shows them to a reader who may open them", () => {
    expect(index.search("zorblaz", { canRead: staff }).results.map((h) => h.doc.id)).toContain("priv");
    expect(index.search("widgets", { canRead: staff }).total).toBe(2);
  });

  it("asks canRead once per distinct label set, and treats a throwing canRead as a denial", () => {
    const seen: string[] = [];
    index.search("widgets", { canRead: (l) => (seen.push(l.join()), true) });
    expect(seen.sort()).toEqual(["", "staff"]);
    const r = index.search("widgets", { canRead: (l) => { if (l.length) throw new Error("no"); return true; } });
    expect(r.results.map((h) => h.doc.id)).toEqual(["pub"]);
  });
});

describe("loading", () => {
  it("round-trips through bytes", () => {
    const bytes = new TextEncoder().encode(buildSearchIndex(API));
    expect(loadSearchIndex(bytes).search("firewall", { canRead: all }).results[0].doc.id).toBe("fw");
  });

  it("refuses data that is not an index", () => {
    expect(() => loadSearchIndex("{")).toThrow(/not valid JSON/);
    expect(() => loadSearchIndex('{"format":"other"}')).toThrow(/format/);
  });

  it("keeps the first of duplicate ids", () => {
    expect(engine([doc("a", "First widget"), doc("a", "Second widget")]).size).toBe(1);
  });
});
