import { describe, expect, it } from "vitest";
import { TypoFinder } from "./fuzzy";
import { buildSearchIndex, loadSearchIndex, type SearchDocument } from "./index";

// A vendor's endpoints, a guide section and changelog entries whose bodies add types (issue 34's class 1): the
// endpoints share the identifiers' common words ("parcel", "label", "event") in their titles.
const doc = (id: string, kind: SearchDocument["kind"], title: string, body: string, operationId?: string): SearchDocument => ({
  id, kind, title, body, url: `/x/${id}`, locale: "en", labels: [], ...(operationId ? { fields: { operationId } } : {}),
});
const DOCS = [
  doc("void", "operation", "Void a parcel label", "Voids the label of a parcel that was not shipped.", "voidParcelLabel"),
  doc("events", "operation", "List parcel label events", "Lists the events of a parcel label.", "listParcelLabelEvents"),
  doc("create", "operation", "Create a parcel label", "Creates a label for a parcel.", "createParcelLabel"),
  doc("share", "operation", "Request download share", "Returns one download share.", "requestDownloadShare"),
  doc("guide", "guide", "Labels › Voiding a label", "A voided parcel label cannot be used again. The label event tells you when."),
  doc("v240", "changelog", "Changelog › Version 2.4.0", "Added `ParcelLabelVoidedEvent`, sent to webhooks when a label is voided."),
  doc("v230", "changelog", "Changelog › Version 2.3.0", "Added `ParcelLabelCreatedEvent` and the `label_format` field."),
  doc("v220", "changelog", "Changelog › Version 2.2.0", "Added `requestDownloadShares`, which lists download shares."),
];
const engine = loadSearchIndex(buildSearchIndex(DOCS));
const first = (q: string) => engine.search(q, { canRead: () => true }).results[0]?.doc.id;

describe("identifiers in a document's body", () => {
  it("finds the document naming an identifier whole before those sharing its words, in any spelling", () => {
    expect(first("ParcelLabelVoidedEvent")).toBe("v240");
    expect(first("parcel_label_voided_event")).toBe("v240");
    expect(first("parcel.label.voided.event")).toBe("v240");
    expect(first("ParcelLabelCreatedEvent")).toBe("v230");
  });

  it("finds it by a prefix typed as the identifier", () => {
    expect(first("ParcelLabelVoi")).toBe("v240");
    expect(first("ParcelLabelCrea")).toBe("v230");
  });

  it("finds it through a typo in the identifier", () => {
    expect(first("ParcelLabelVoidedEvnet")).toBe("v240");
    expect(first("ParcelLabelCraetedEvent")).toBe("v230");
  });

  it("never suggests an identifier's index form for a word; suggests it whole as the reader spells it", () => {
    const suggest = (q: string) => engine.search(q, { canRead: () => true }).suggestions;
    // "evxnx" is two edits from "event", too many for a word; the identifier as a whole is within two.
    expect(suggest("ParcelLabelVoidedEvxnx ")).toEqual(["ParcelLabelVoidedEvent"]);
    expect(suggest("parcelLabelVxidxdEvent")).toEqual(["parcelLabelVoidedEvent"]);
    expect(suggest("parcel_label_voided_evxnx")).toEqual(["parcel_label_voided_event"]);
    expect(suggest("parcel.label.voided.evxnx")).toEqual(["parcel.label.voided.event"]);
    // A part its word's own correction explains is suggested as that word.
    expect(suggest("ParcelLabelVoidedEvnet")).toEqual(["parcel label voided event"]);
    for (const q of ["ParcelLabelVoidedEvxnx", "ParcelLabelCraetedEvnt", "requestDownloadSharse"]) {
      for (const s of suggest(q) ?? []) expect(s).not.toMatch(/\w_\w/);
    }
  });

  it("keeps an identifier apart from its plural's", () => {
    expect(first("requestDownloadShares")).toBe("v220");
    expect(first("requestDownloadShare")).toBe("share");
  });

  it("still ranks the title first for the words without the identifier", () => {
    expect(first("void parcel label")).toBe("void");
  });

  it("finds an identifier typed as its words when a changelog entry's body names it, before titles with one of the words", () => {
    // A tracking vendor (dev set 3's shape): operations titled with "device" whose bodies say "time", and the release
    // that added the `deviceTime` field. Typed as words, the reader names the field.
    const docs = [
      doc("devices", "operation", "Fetch a list of Devices", "Without parameters returns the devices the user can see. Filter by the time of the last update.", "getDevices"),
      doc("device", "operation", "Update a Device", "Updates a device; the server sets the time of the change.", "updateDevice"),
      doc("accumulators", "operation", "Update total distance and hours of the Device", "Sets the device's accumulators at a given time.", "updateDeviceAccumulators"),
      doc("positions", "operation", "Fetch a list of Positions", "Positions of a device between two times.", "getPositions"),
      doc("v511", "changelog", "Traccar › Version 5.11", "- `Position` has `fixTime`, `deviceTime` and `serverTime` in every response; `accuracy` is in meters."),
      doc("v510", "changelog", "Traccar › Version 5.10", "- `Device` has `expirationTime`; a device past it stops reporting positions."),
    ];
    const tracker = loadSearchIndex(buildSearchIndex(docs));
    const top = (q: string) => tracker.search(q, { canRead: () => true }).results[0]?.doc.id;
    expect(top("device time")).toBe("v511");
    expect(top("server time")).toBe("v511");
    expect(top("expiration time")).toBe("v510");
    // Words that are no identifier of the portal keep the title rule.
    expect(top("update device")).toBe("device");
  });

  it("finds an identifier typed as its words when some of its parts are stopwords (created at, has, can, of, for)", () => {
    // A shop vendor (dev set 3's shape): list operations whose titles and bodies say "created", "modified", "minute"
    // and "recycle bin", and the releases that added `createdAtMin`, `lastModifiedAt`, `hasRecycleBin`, `countryOfOrigin`.
    // A reader types the field as words, stopwords included; before, the stopwords were dropped before the words were
    // read as one identifier, so "created at min" looked for `created_min`, which no document has.
    const docs = [
      doc("invoice", "operation", "Create an invoice for an existing order", "Throttled to 1 per 5 minutes. Returns the created invoice.", "createInvoice"),
      doc("orders", "operation", "Get a list of all orders", "Orders created or modified in a time range, 1 call per minute.", "getOrders"),
      doc("patch", "operation", "Update fields of an order", "The last modified date of the order changes.", "patchOrder"),
      doc("empty", "operation", "Empty recycle bin", "Removes every node in the recycle bin.", "emptyRecycleBin"),
      doc("restore", "operation", "Restore nodes from the recycle bin", "Restores deleted nodes.", "restoreNodes"),
      doc("origin", "operation", "Get the origin of a product", "The country a product comes from.", "getProductOrigin"),
      doc("v155", "changelog", "Changelog › Version 1.55.0", "- `GET /shipments` takes `createdAtMin` and `createdAtMax`; every shipment has `LastModifiedAt`."),
      doc("v420", "changelog", "Changelog › Version 4.2.0", "- A room has `hasRecycleBin` and `canRestoreRecycleBin`."),
      doc("v147", "changelog", "Changelog › Version 1.47.0", "- Products carry `CountryOfOrigin` for customs."),
    ];
    const shop = loadSearchIndex(buildSearchIndex(docs));
    const top = (q: string) => shop.search(q, { canRead: () => true }).results[0]?.doc.id;
    expect(top("created at min")).toBe("v155");
    expect(top("last modified at")).toBe("v155");
    expect(top("last modified at ")).toBe("v155");
    expect(top("has recycle bin")).toBe("v420");
    expect(top("can restore recycle bin")).toBe("v420");
    expect(top("country of origin")).toBe("v147");
    // Stopwords that join no identifier of the portal are still dropped, and the title rule decides.
    expect(top("restore the recycle bin")).toBe("restore");
    expect(top("origin of a product")).toBe("origin");
    // An identifier that leaves out the stopwords the reader typed is still found ("delete the droplet" → `deleteDroplet`).
    const drops = loadSearchIndex(buildSearchIndex([
      doc("vol", "operation", "Delete a volume", "Detaches the volume from its droplet first.", "deleteVolume"),
      doc("snap", "operation", "Delete a snapshot", "Snapshots of a droplet are kept a week.", "deleteSnapshot"),
      doc("v2", "changelog", "Changelog › Version 2.0.0", "- Added `deleteDroplet`, which also removes its backups."),
    ]));
    for (const q of ["delete droplet", "delete the droplet", "delete a droplet "]) expect(drops.search(q, { canRead: () => true }).results[0]?.doc.id, q).toBe("v2");
    // The stopword read as a part is no word of "did you mean": the words are suggested as before.
    expect(shop.search("has recycle bin emptyy", { canRead: () => true }).suggestions).toEqual(["recycle bin empty"]);
  });
});

describe("TypoFinder", () => {
  it("never reads a word's typo as a whole identifier, nor an identifier's as a word", () => {
    const words = ["label", "parcel", "parcel_label", "parcel_label_voided"].sort();
    const finder = new TypoFinder(words);
    expect(finder.find("labl").map((c) => words[c.word])).toEqual(["label"]);
    expect(finder.identifier("parcel_lable").map((c) => words[c.word])).toEqual(["parcel_label"]);
    expect(finder.identifier("parcel_label_vioded").map((c) => words[c.word])).toEqual(["parcel_label_voided"]);
  });
});
