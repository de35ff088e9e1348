import { describe, expect, it } from "vitest";
import { mapLegacyHash, type AnchorOperation, type AnchorTag } from "./map-hash";

const ops: AnchorOperation[] = [
  { slug: "repos-get", href: "/p/a/reference/gh/1/repos-get", operationId: "repos/get", method: "get", path: "/repos/{owner}/{repo}" },
  { slug: "listpets", href: "/p/a/reference/pets/1/listpets", operationId: "listpets", method: "get", path: "/pets" },
  { slug: "createpet-2", href: "/p/a/reference/pets/1/createpet-2", operationId: "createPet", method: "post", path: "/pets" },
];
const tags: AnchorTag[] = [{ name: "Pet Store", href: "#tag-pet-store" }, { name: "repos", href: "#tag-repos" }];

describe("mapLegacyHash", () => {
  it("maps Redoc 2 #operation/{operationId} and #tag/{tag}", () => {
    expect(mapLegacyHash("#operation/repos/get", ops, tags)).toBe("/p/a/reference/gh/1/repos-get");
    expect(mapLegacyHash("#operation/createPet", ops, tags)).toBe("/p/a/reference/pets/1/createpet-2");
    expect(mapLegacyHash("#tag/Pet%20Store", ops, tags)).toBe("#tag-pet-store");
    expect(mapLegacyHash("#tag/pet-store", ops, tags)).toBe("#tag-pet-store");
  });

  it("maps Redoc 3 / Redocly / Swagger UI #/{tag}/{operationId}", () => {
    expect(mapLegacyHash("#/Pet%20Store/createPet", ops, tags)).toBe("/p/a/reference/pets/1/createpet-2");
    expect(mapLegacyHash("#/pets/listPets", ops, tags)).toBe("/p/a/reference/pets/1/listpets");
    expect(mapLegacyHash("#/repos", ops, tags)).toBe("#tag-repos");
  });

  it("maps Scalar #tag/{tag}/{METHOD}{path}", () => {
    expect(mapLegacyHash("#tag/pet-store/POST/pets", ops, tags)).toBe("/p/a/reference/pets/1/createpet-2");
    expect(mapLegacyHash("#tag/repos/GET/repos/{owner}/{repo}", ops, tags)).toBe("/p/a/reference/gh/1/repos-get");
    expect(mapLegacyHash("#tag/repos/GET/repos/%7Bowner%7D/%7Brepo%7D", ops, tags)).toBe("/p/a/reference/gh/1/repos-get");
  });

  it("leaves our own and unknown fragments alone", () => {
    expect(mapLegacyHash("#listpets", ops, tags)).toBeUndefined();
    expect(mapLegacyHash("#operation/nope", ops, tags)).toBeUndefined();
    expect(mapLegacyHash("#tag/none/GET/nowhere", ops, tags)).toBeUndefined();
    expect(mapLegacyHash("", ops, tags)).toBeUndefined();
  });
});
