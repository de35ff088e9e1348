#!/usr/bin/env python3
"""Writes test/fixtures/diff/<family>/<case>.json: one small base/revision pair per rule, with the ids and levels
expected in both directions (written here by hand from oasdiff's documented behaviour, not from the engine).
worker/openapi/diff/fixtures.test.ts runs each pair as OpenAPI 3.0 and, converted, as 3.1 (nullable -> type arrays)
unless a case names its versions. Run: python3 scripts/diff/make-fixtures.py"""
import copy
from fixture_lib import CASES, I, S, body, case, doc, obj, ok, op, write_cases

# --- paths and operations
both = {"/pets": {"get": op(operationId="list"), "post": op(operationId="create")}}
only_get = {"/pets": {"get": op(operationId="list")}}
case("paths", "operation-removed", doc(both), doc(only_get), ["api-removed-without-deprecation ERR"], ["endpoint-added INFO"])
dep = copy.deepcopy(both); dep["/pets"]["post"]["deprecated"] = True
case("paths", "operation-removed-deprecated", doc(dep), doc(only_get), ["api-removed-with-deprecation INFO"], ["endpoint-added INFO"])
sun = copy.deepcopy(dep); sun["/pets"]["post"]["x-sunset"] = "2999-01-01"
case("paths", "operation-removed-before-sunset", doc(sun), doc(only_get), ["api-removed-before-sunset ERR"], ["endpoint-added INFO"])
bad = copy.deepcopy(dep); bad["/pets"]["post"]["x-sunset"] = "next spring"
case("paths", "operation-removed-unreadable-sunset", doc(bad), doc(only_get), ["api-path-sunset-parse ERR"], ["endpoint-added INFO"])
past = copy.deepcopy(dep); past["/pets"]["post"]["x-sunset"] = "2020-01-01"
case("paths", "operation-removed-after-sunset", doc(past), doc(only_get), ["api-removed-with-deprecation INFO"], ["endpoint-added INFO"])
two = {"/pets": {"get": op(operationId="list")}, "/users": {"get": op(operationId="users")}}
case("paths", "path-removed", doc(two), doc(only_get), ["api-path-removed-without-deprecation ERR"], ["endpoint-added INFO"])
twodep = copy.deepcopy(two); twodep["/users"]["get"]["deprecated"] = True
case("paths", "path-removed-deprecated", doc(twodep), doc(only_get), ["api-path-removed-with-deprecation INFO"], ["endpoint-added INFO"])
pid = lambda n: {"/pets/{%s}" % n: {"get": op(operationId="show", parameters=[{"name": n, "in": "path", "required": True, "schema": S}])}}
case("paths", "path-parameter-renamed", doc(pid("id")), doc(pid("petId")), [], [], note="/pets/{id} and /pets/{petId} are the same path")
case("paths", "operation-deprecated", doc(only_get), doc({"/pets": {"get": op(operationId="list", deprecated=True)}}), ["endpoint-deprecated INFO"], ["endpoint-reactivated INFO"])
case("paths", "sunset-deleted", doc({"/pets": {"get": op(operationId="list", deprecated=True, **{"x-sunset": "2999-01-01"})}}), doc({"/pets": {"get": op(operationId="list", deprecated=True)}}), ["sunset-deleted ERR"], [])
q32 = lambda extra: {"openapi": "3.2.0", "info": {"title": "Fixture", "version": "1.0.0"}, "paths": {"/search": {"get": op(operationId="search"), **extra}}}
case("paths", "query-operation-added", q32({}), q32({"query": op(operationId="searchQuery")}), ["endpoint-added INFO"], ["api-removed-without-deprecation ERR"], versions=["as-is"])
case("paths", "additional-operation-added", q32({}), q32({"additionalOperations": {"LINK": op(operationId="link")}}), ["endpoint-added INFO"], ["api-removed-without-deprecation ERR"], versions=["as-is"])
case("paths", "operation-id-changed", doc({"/pets": {"get": op(operationId="list")}}), doc({"/pets": {"get": op(operationId="listPets")}}), ["api-operation-id-removed INFO"], ["api-operation-id-removed INFO"])

# --- parameters
def pq(*params): return doc({"/pets": {"get": op(operationId="list", parameters=list(params))}})
qp = lambda name="limit", required=False, schema=S, where="query": {"name": name, "in": where, "required": required, "schema": schema}
case("parameters", "required-added", pq(), pq(qp(required=True)), ["new-required-request-parameter ERR"], ["request-parameter-removed WARN"])
case("parameters", "required-added-to-path-item", doc({"/pets": {"get": op(operationId="list")}}), doc({"/pets": {"parameters": [qp("tenant", required=True, where="header")], "get": op(operationId="list")}}), ["new-required-request-default-parameter-to-existing-path ERR"], ["request-parameter-removed WARN"])
case("parameters", "optional-added", pq(), pq(qp()), ["new-optional-request-parameter INFO"], ["request-parameter-removed WARN"])
case("parameters", "became-required", pq(qp()), pq(qp(required=True)), ["request-parameter-became-required ERR"], ["request-parameter-became-optional INFO"])
case("parameters", "type-changed", pq(qp(schema=S)), pq(qp(schema=I)), ["request-parameter-type-changed ERR"], ["request-parameter-type-changed ERR"])
case("parameters", "format-changed", pq(qp(schema={"type": "integer", "format": "int32"})), pq(qp(schema={"type": "integer", "format": "int64"})), ["request-parameter-type-changed ERR"], ["request-parameter-type-changed ERR"])
case("parameters", "in-changed", pq(qp()), pq(qp(where="header")), ["request-parameter-in-changed ERR"], ["request-parameter-in-changed ERR"])
case("parameters", "enum-value-removed", pq(qp(schema={"type": "string", "enum": ["a", "b"]})), pq(qp(schema={"type": "string", "enum": ["a"]})), ["request-parameter-enum-value-removed ERR"], ["request-parameter-enum-value-added INFO"])
case("parameters", "became-enum", pq(qp()), pq(qp(schema={"type": "string", "enum": ["a"]})), ["request-parameter-became-enum ERR"], [])
case("parameters", "became-nullable", pq(qp()), pq(qp(schema={"type": "string", "nullable": True})), ["request-parameter-became-nullable INFO"], ["request-parameter-became-not-nullable ERR"])
case("parameters", "max-length-decreased", pq(qp(schema={"type": "string", "maxLength": 10})), pq(qp(schema={"type": "string", "maxLength": 5})), ["request-parameter-max-length-decreased ERR"], ["request-parameter-max-length-increased INFO"])
case("parameters", "deprecated-parameter-removed", pq(qp(), {**qp("old"), "deprecated": True}), pq(qp()), ["request-parameter-removed-with-deprecation INFO"], ["new-optional-request-parameter INFO"])
case("parameters", "path-parameter-via-ref", doc({"/pets/{id}": {"parameters": [{"$ref": "#/components/parameters/Id"}], "get": op(operationId="show")}}, {"parameters": {"Id": {"name": "id", "in": "path", "required": True, "schema": S}}}),
     doc({"/pets/{petId}": {"get": op(operationId="show", parameters=[{"name": "petId", "in": "path", "required": True, "schema": I}])}}), ["request-parameter-type-changed ERR"], ["request-parameter-type-changed ERR"], note="path parameters match by position, through $ref and path-item level")

# --- request bodies
def pb(schema, required=True, mt="application/json", components=None):
    return doc({"/pets": {"post": op(operationId="create", requestBody=body(schema, required, mt))}}, components)
case("request-body", "property-became-required", pb(obj({"name": S})), pb(obj({"name": S}, ["name"])), ["request-property-became-required ERR"], ["request-property-became-optional INFO"])
case("request-body", "required-property-added", pb(obj({"name": S})), pb(obj({"name": S, "age": I}, ["age"])), ["new-required-request-property ERR"], ["request-property-removed WARN"])
case("request-body", "read-only-required-property-added", pb(obj({"name": S})), pb(obj({"name": S, "id": {"type": "string", "readOnly": True}}, ["id"])), ["new-optional-request-property INFO"], ["request-property-removed WARN"], note="a readOnly property is never sent, so its requiredness does not bind requests")
case("request-body", "enum-value-removed", pb(obj({"kind": {"type": "string", "enum": ["cat", "dog"]}})), pb(obj({"kind": {"type": "string", "enum": ["cat"]}})), ["request-property-enum-value-removed ERR"], ["request-property-enum-value-added INFO"])
case("request-body", "read-only-enum-value-removed", pb(obj({"kind": {"type": "string", "readOnly": True, "enum": ["cat", "dog"]}})), pb(obj({"kind": {"type": "string", "readOnly": True, "enum": ["cat"]}})), ["request-read-only-property-enum-value-removed INFO"], [])
case("request-body", "body-became-required", pb(obj({"name": S}), False), pb(obj({"name": S}), True), ["request-body-became-required ERR"], ["request-body-became-optional INFO"])
case("request-body", "media-type-removed", doc({"/pets": {"post": op(operationId="create", requestBody={"content": {"application/json": {"schema": S}, "application/xml": {"schema": S}}})}}), pb(S, False), ["request-body-media-type-removed ERR"], ["request-body-media-type-added INFO"])
comps = {"schemas": {"Named": obj({"name": S}, ["name"])}}
case("request-body", "all-of-merged", pb({"allOf": [{"$ref": "#/components/schemas/Named"}, obj({"age": I})]}, components=comps), pb(obj({"name": S, "age": I}, ["name"]), components=comps), ["request-body-all-of-removed INFO"], ["request-body-all-of-added ERR"], note="allOf parts are merged before comparing their facts; the parts themselves are oasdiff's all-of-added/removed")
node = lambda extra: {"schemas": {"Node": obj({"name": S, "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}, **extra})}}
case("request-body", "recursive-schema", pb({"$ref": "#/components/schemas/Node"}, components=node({})), pb({"$ref": "#/components/schemas/Node"}, components=node({"label": S})), ["new-optional-request-property INFO"], ["request-property-removed WARN"], note="cycles are followed once on both sides")
loop = lambda extra: {"schemas": {"A": obj({"b": {"$ref": "#/components/schemas/B", "description": "sibling"}, **extra}), "B": obj({"a": {"$ref": "#/components/schemas/A", "description": "sibling"}})}}
case("request-body", "recursive-refs-with-siblings", pb({"$ref": "#/components/schemas/A"}, components=loop({})), pb({"$ref": "#/components/schemas/A"}, components=loop({"c": S})), ["new-optional-request-property INFO"], ["request-property-removed WARN"], versions=["3.1"], note="3.1 $ref siblings in a cycle are followed once")
pets = {"schemas": {"Cat": obj({"meow": S}), "Dog": obj({"bark": S})}}
case("request-body", "one-of-variant-removed", pb({"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}]}, components=pets), pb({"oneOf": [{"$ref": "#/components/schemas/Cat"}]}, components=pets), ["request-body-one-of-removed ERR"], ["request-body-one-of-added INFO"])
case("request-body", "type-array-narrowed", pb(obj({"v": {"type": ["string", "integer"]}})), pb(obj({"v": {"type": "string"}})), ["request-property-list-of-types-narrowed ERR"], ["request-property-list-of-types-widened INFO"], versions=["3.1"])
case("request-body", "const-changed", pb(obj({"v": {"type": "string", "const": "a"}})), pb(obj({"v": {"type": "string", "const": "b"}})), ["request-property-const-changed ERR"], ["request-property-const-changed ERR"], versions=["3.1"])
case("request-body", "prefix-items-removed", pb({"type": "array", "prefixItems": [S, I]}), pb({"type": "array", "prefixItems": [S]}), ["request-body-prefix-items-removed ERR"], ["request-body-prefix-items-added INFO"], versions=["3.1"])
b30 = pb(obj({"v": {"type": "string", "nullable": True}}))
b31 = pb(obj({"v": {"type": ["string", "null"]}})); b31["openapi"] = "3.1.0"
case("request-body", "nullable-vs-type-array", b30, b31, [], [], versions=["as-is"], note="3.0 nullable and a 3.1 type array with null are the same schema")
b31any = pb(obj({"v": {"anyOf": [{"type": "string"}, {"type": "null"}]}})); b31any["openapi"] = "3.1.0"
case("request-body", "nullable-vs-any-of-null", b30, b31any, [], [], versions=["as-is"], note="anyOf with a null variant reads as nullable")

case("request-body", "unique-items-set", pb(obj({"tags": {"type": "array", "items": S}})), pb(obj({"tags": {"type": "array", "items": S, "uniqueItems": True}})), ["request-property-unique-items-set ERR"], ["request-property-unique-items-unset INFO"])
case("request-body", "max-properties-decreased", pb({"type": "object", "maxProperties": 10}), pb({"type": "object", "maxProperties": 5}), ["request-body-max-properties-decreased ERR"], ["request-body-max-properties-increased INFO"])
case("request-body", "multiple-of-generalized", pb(obj({"n": {"type": "integer", "multipleOf": 4}})), pb(obj({"n": {"type": "integer", "multipleOf": 2}})), ["request-property-multiple-of-generalized INFO"], ["request-property-multiple-of-changed ERR"])
case("request-body", "required-property-with-default-added", pb(obj({"name": S})), pb(obj({"name": S, "size": {"type": "integer", "default": 1}}, ["size"])), ["new-required-request-property-with-default ERR"], ["request-property-removed WARN"])
b30x = pb(obj({"n": {"type": "number", "maximum": 10, "exclusiveMaximum": True}}))
b31x = pb(obj({"n": {"type": "number", "exclusiveMaximum": 10}})); b31x["openapi"] = "3.1.0"
case("request-body", "exclusive-maximum-3.0-vs-3.1", b30x, b31x, [], [], versions=["as-is"], note="3.0 boolean exclusiveMaximum and 3.1 numeric exclusiveMaximum are the same bound")
case("request-body", "exclusive-maximum-decreased", pb(obj({"n": {"type": "number", "exclusiveMaximum": 10}})), pb(obj({"n": {"type": "number", "exclusiveMaximum": 5}})), ["request-property-exclusive-max-decreased ERR"], ["request-property-exclusive-max-increased INFO"], versions=["3.1"])

# --- responses
def pr(schema=None, responses=None, components=None):
    return doc({"/pets": {"get": op(operationId="list", responses=responses or ok(schema))}}, components)
def stream(item):
    d = {"openapi": "3.2.0", "info": {"title": "Fixture", "version": "1.0.0"}, "paths": {"/events": {"get": op(operationId="events", responses={"200": {"description": "ok", "content": {"application/jsonl": {"itemSchema": item}}}})}}}
    return d
case("responses", "item-schema-property-removed", stream(obj({"id": I, "kind": S}, ["id", "kind"])), stream(obj({"id": I}, ["id"])), ["response-required-property-removed ERR"], ["response-required-property-added INFO"], versions=["as-is"], note="3.2 itemSchema of a stream is compared like a body")
case("responses", "schema-removed-from-media-type", pr(S), pr(responses={"200": {"description": "ok", "content": {"application/json": {}}}}), ["response-body-media-type-schema-removed ERR"], ["response-body-media-type-schema-added INFO"])
case("responses", "success-status-changed", pr(S), pr(responses=ok(S, "201")), ["response-success-status-removed ERR", "response-success-status-added INFO"], ["response-success-status-removed ERR", "response-success-status-added INFO"])
case("responses", "non-success-status-removed", pr(responses={**ok(S), "404": {"description": "missing"}}), pr(S), ["response-non-success-status-removed INFO"], ["response-non-success-status-added INFO"])
case("responses", "required-property-removed", pr(obj({"id": I, "name": S}, ["id", "name"])), pr(obj({"id": I}, ["id"])), ["response-required-property-removed ERR"], ["response-required-property-added INFO"])
case("responses", "optional-property-removed", pr(obj({"id": I, "name": S}, ["id"])), pr(obj({"id": I}, ["id"])), ["response-optional-property-removed WARN"], ["response-optional-property-added INFO"])
case("responses", "property-became-optional", pr(obj({"id": I}, ["id"])), pr(obj({"id": I})), ["response-property-became-optional ERR"], ["response-property-became-required INFO"])
case("responses", "enum-value-added", pr(obj({"kind": {"type": "string", "enum": ["cat"]}})), pr(obj({"kind": {"type": "string", "enum": ["cat", "dog"]}})), ["response-property-enum-value-added WARN"], ["response-property-enum-value-removed INFO"])
case("responses", "property-type-changed", pr(obj({"id": I})), pr(obj({"id": S})), ["response-property-type-changed ERR"], ["response-property-type-changed ERR"])
case("responses", "property-became-nullable", pr(obj({"id": I})), pr(obj({"id": {"type": "integer", "nullable": True}})), ["response-property-became-nullable ERR"], ["response-property-became-not-nullable INFO"])
case("responses", "media-type-removed", pr(responses={"200": {"description": "ok", "content": {"application/json": {"schema": S}, "text/csv": {"schema": S}}}}), pr(S), ["response-media-type-removed ERR"], ["response-media-type-added INFO"])
case("responses", "write-only-required-property-removed", pr(obj({"id": I, "secret": {"type": "string", "writeOnly": True}}, ["id", "secret"])), pr(obj({"id": I}, ["id"])), ["response-required-write-only-property-removed INFO"], ["response-required-write-only-property-added INFO"])
case("responses", "required-header-removed", pr(responses={"200": {"description": "ok", "headers": {"X-Rate": {"required": True, "schema": I}}}}), pr(), ["required-response-header-removed ERR"], ["response-header-added INFO"])
case("responses", "min-properties-decreased", pr({"type": "object", "minProperties": 2}), pr({"type": "object", "minProperties": 1}), ["response-body-min-properties-decreased ERR"], [])
case("responses", "header-type-changed", pr(responses={"200": {"description": "ok", "headers": {"X-Rate": {"schema": I}}}}), pr(responses={"200": {"description": "ok", "headers": {"X-Rate": {"schema": S}}}}), ["response-header-type-changed ERR"], ["response-header-type-changed ERR"])
case("responses", "request-vs-response-direction", doc({"/pets": {"put": op(operationId="put", requestBody=body(obj({"kind": {"type": "string", "enum": ["cat"]}})), responses=ok(obj({"kind": {"type": "string", "enum": ["cat"]}})))}}),
     doc({"/pets": {"put": op(operationId="put", requestBody=body(obj({"kind": {"type": "string", "enum": ["cat", "dog"]}})), responses=ok(obj({"kind": {"type": "string", "enum": ["cat", "dog"]}})))}}),
     ["request-property-enum-value-added INFO", "response-property-enum-value-added WARN"], ["request-property-enum-value-removed ERR", "response-property-enum-value-removed INFO"], note="a new enum value is safe in a request, a warning in a response")

# --- security
sec = lambda scopes, glob=None: doc({"/pets": {"get": op(operationId="list", security=[{"oauth": scopes}])}}, {"securitySchemes": {"oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://auth.example.org/token", "scopes": {"read": "r", "write": "w"}}}}}}, **({"security": glob} if glob is not None else {}))
case("security", "scope-added", sec(["read"]), sec(["read", "write"]), ["api-security-scope-added ERR"], ["api-security-scope-removed INFO"])
case("security", "global-requirement-removed", sec(["read"], [{"oauth": []}, {"key": []}]), sec(["read"], [{"oauth": []}]), ["api-global-security-removed ERR"], ["api-global-security-added INFO"])
def flows(scopes): return doc({"/pets": {"get": op(operationId="list")}}, {"securitySchemes": {"oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://auth.example.org/token", "scopes": scopes}}}}})
case("security", "flow-scope-added", flows({"read": "r"}), flows({"read": "r", "admin": "a"}), ["api-security-component-oauth-scope-added INFO"], ["api-security-component-oauth-scope-removed INFO"])

# --- servers
case("servers", "server-removed", doc(only_get, servers=[{"url": "https://a.example.org"}, {"url": "https://b.example.org"}]), doc(only_get, servers=[{"url": "https://a.example.org"}]), ["api-server-removed WARN"], ["api-server-added INFO"])

write_cases()
