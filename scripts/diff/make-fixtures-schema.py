#!/usr/bin/env python3
"""Writes the issue-35 fixture families of test/fixtures/diff (same format as make-fixtures.py): JSON Schema 2020-12
keywords (3.1 only), parameter schemas, compositions (allOf parts, oneOf wrapping) and levels. Expected ids and
levels are written by hand from oasdiff's rule table (checker/rules.go) and checker tests, not from the engine;
"ours" ids (additionalProperties) are docs/diff.md's. Run: python3 scripts/diff/make-fixtures-schema.py"""
from fixture_lib import I, S, case, doc, obj, op, write_cases

def arr(items=S, **kw): return {"type": "array", "items": items, **kw}
def pb(schema, components=None): return doc({"/pets": {"post": op(operationId="create", requestBody={"required": True, "content": {"application/json": {"schema": schema}}})}}, components)
def pr(schema, components=None): return doc({"/pets": {"get": op(operationId="list", responses={"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}})}}, components)
def pq(*params): return doc({"/pets": {"get": op(operationId="list", parameters=list(params))}})
def qp(schema, name="filter"): return {"name": name, "in": "query", "required": False, "schema": schema}

V31 = ["3.1"]
# --- JSON Schema 2020-12 keywords (OpenAPI 3.1+)
J = "json-schema"
case(J, "contains-added", pb(arr()), pb(arr(contains={"type": "string", "minLength": 3})), ["request-body-contains-added ERR"], ["request-body-contains-removed INFO"], V31)
case(J, "response-contains-removed", pr(obj({"tags": arr(contains={"const": "a"})})), pr(obj({"tags": arr()})), ["response-property-contains-removed ERR"], ["response-property-contains-added INFO"], V31)
case(J, "min-contains-increased", pb(obj({"tags": arr(contains=S, minContains=1)})), pb(obj({"tags": arr(contains=S, minContains=2)})), ["request-property-min-contains-increased ERR"], ["request-property-min-contains-decreased INFO"], V31)
case(J, "max-contains-decreased", pr(arr(contains=S, maxContains=5)), pr(arr(contains=S, maxContains=3)), ["response-body-max-contains-decreased INFO"], ["response-body-max-contains-increased ERR"], V31)
case(J, "dependent-required-added", pb(obj({"a": S, "b": S})), pb(obj({"a": S, "b": S}, dependentRequired={"a": ["b"]})), ["request-body-dependent-required-added ERR"], ["request-body-dependent-required-removed INFO"], V31)
case(J, "dependent-required-changed", pb(obj({"p": obj({"a": S, "b": S, "c": S}, dependentRequired={"a": ["b"]})})), pb(obj({"p": obj({"a": S, "b": S, "c": S}, dependentRequired={"a": ["c"]})})), ["request-property-dependent-required-changed ERR"], ["request-property-dependent-required-changed ERR"], V31)
case(J, "response-dependent-required-removed", pr(obj({"a": S, "b": S}, dependentRequired={"a": ["b"]})), pr(obj({"a": S, "b": S})), ["response-body-dependent-required-removed ERR"], ["response-body-dependent-required-added INFO"], V31)
case(J, "unevaluated-properties-added", pb(obj({"a": S})), pb(obj({"a": S}, unevaluatedProperties=False)), ["request-body-unevaluated-properties-added ERR"], ["request-body-unevaluated-properties-removed INFO"], V31)
case(J, "response-unevaluated-properties-removed", pr(obj({"p": obj({"a": S}, unevaluatedProperties=False)})), pr(obj({"p": obj({"a": S})})), ["response-property-unevaluated-properties-removed ERR"], ["response-property-unevaluated-properties-added INFO"], V31)
case(J, "unevaluated-items-added", pb(obj({"t": {"type": "array", "prefixItems": [S]}})), pb(obj({"t": {"type": "array", "prefixItems": [S], "unevaluatedItems": False}})), ["request-property-unevaluated-items-added ERR"], ["request-property-unevaluated-items-removed INFO"], V31)
case(J, "pattern-property-added", pb(obj({"a": S})), pb(obj({"a": S}, patternProperties={"^x-": S})), ["request-body-pattern-property-added ERR"], ["request-body-pattern-property-removed INFO"], V31)
case(J, "property-names-added", pb(obj({"m": {"type": "object"}})), pb(obj({"m": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}})), ["request-property-property-names-added ERR"], ["request-property-property-names-removed INFO"], V31)
case(J, "dependent-schema-added", pb(obj({"a": S})), pb(obj({"a": S}, dependentSchemas={"a": {"required": ["b"]}})), ["request-body-dependent-schema-added ERR"], ["request-body-dependent-schema-removed INFO"], V31)
case(J, "if-then-added", pb(obj({"a": S})), pb(obj({"a": S}, **{"if": {"required": ["a"]}, "then": {"required": ["b"]}})), ["request-body-if-added ERR", "request-body-then-added ERR"], ["request-body-if-removed INFO", "request-body-then-removed INFO"], V31)
case(J, "response-prefix-items-added", pr(obj({"t": {"type": "array", "prefixItems": [S]}})), pr(obj({"t": {"type": "array", "prefixItems": [S, I]}})), ["response-property-prefix-items-added ERR"], ["response-property-prefix-items-removed INFO"], V31)
case(J, "response-const-removed", pr({"type": "string", "const": "ok"}), pr(S), ["response-body-const-removed ERR"], ["response-body-const-added INFO"], V31)
case(J, "content-media-type-changed", pb(obj({"f": {"type": "string", "contentMediaType": "image/png"}})), pb(obj({"f": {"type": "string", "contentMediaType": "image/jpeg"}})), ["request-property-content-media-type-changed ERR"], ["request-property-content-media-type-changed ERR"], V31)
case(J, "additional-properties-narrowed", pb(obj({"a": S})), pb(obj({"a": S}, additionalProperties=False)), ["request-body-additional-properties-narrowed ERR"], ["request-body-additional-properties-widened INFO"], note="ours: additionalProperties: false (or a schema) where any property was allowed")
case(J, "additional-properties-schema-changed", pb(obj({"m": {"type": "object", "additionalProperties": S}})), pb(obj({"m": {"type": "object", "additionalProperties": I}})), ["request-property-type-changed ERR"], ["request-property-type-changed ERR"], note="additionalProperties schemas are compared like a property's")

# --- parameter schemas
P = "parameter-schemas"
case(P, "default-value-changed", pq(qp({"type": "integer", "default": 10}, "limit")), pq(qp({"type": "integer", "default": 20}, "limit")), ["request-parameter-default-value-changed INFO"], ["request-parameter-default-value-changed INFO"])
case(P, "default-value-added", pq(qp(I, "limit")), pq(qp({"type": "integer", "default": 20}, "limit")), ["request-parameter-default-value-added INFO"], ["request-parameter-default-value-removed INFO"])
case(P, "object-property-type-changed", pq({"name": "filter", "in": "query", "style": "deepObject", "schema": obj({"size": I})}), pq({"name": "filter", "in": "query", "style": "deepObject", "schema": obj({"size": S})}), ["request-parameter-property-type-changed WARN"], ["request-parameter-property-type-changed WARN"])
case(P, "content-property-type-changed", pq({"name": "filter", "in": "query", "content": {"application/json": {"schema": obj({"size": I})}}}), pq({"name": "filter", "in": "query", "content": {"application/json": {"schema": obj({"size": S})}}}), ["request-parameter-property-type-changed WARN"], ["request-parameter-property-type-changed WARN"])
case(P, "object-property-enum-value-removed", pq(qp(obj({"kind": {"type": "string", "enum": ["a", "b"]}}))), pq(qp(obj({"kind": {"type": "string", "enum": ["a"]}}))), ["request-parameter-property-enum-value-removed ERR"], ["request-parameter-property-enum-value-added INFO"])
case(P, "pattern-added", pq(qp(S)), pq(qp({"type": "string", "pattern": "^[a-z]+$"})), ["request-parameter-pattern-added ERR"], ["request-parameter-pattern-removed INFO"])
case(P, "pattern-changed", pq(qp({"type": "string", "pattern": "^[a-z]+$"})), pq(qp({"type": "string", "pattern": "^[a-z0-9]+$"})), ["request-parameter-pattern-changed WARN"], ["request-parameter-pattern-changed WARN"])
case(P, "pattern-generalized", pq(qp({"type": "string", "pattern": "^[a-z]+$"})), pq(qp({"type": "string", "pattern": ".*"})), ["request-parameter-pattern-generalized INFO"], ["request-parameter-pattern-changed WARN"], note="a pattern changed to one that matches any string widens")
case(P, "extensible-enum-value-removed", pq(qp({"type": "string", "x-extensible-enum": ["a", "b"]})), pq(qp({"type": "string", "x-extensible-enum": ["a"]})), ["request-parameter-x-extensible-enum-value-removed ERR"], [])
case(P, "property-extensible-enum-value-removed", pb(obj({"kind": {"type": "string", "x-extensible-enum": ["a", "b"]}})), pb(obj({"kind": {"type": "string", "x-extensible-enum": ["a"]}})), ["request-property-x-extensible-enum-value-removed ERR"], [])
case(P, "property-pattern-generalized", pb(obj({"code": {"type": "string", "pattern": "^[A-Z]{3}$"}})), pb(obj({"code": {"type": "string", "pattern": "^.*$"}})), ["request-property-pattern-generalized INFO"], ["request-property-pattern-changed WARN"])

# --- compositions
C = "compositions"
parts = {"schemas": {"Named": obj({"name": S}, ["name"]), "Aged": obj({"age": I})}}
ref = lambda n: {"$ref": "#/components/schemas/" + n}
case(C, "all-of-ref-added", pb({"allOf": [ref("Named")]}, parts), pb({"allOf": [ref("Named"), ref("Aged")]}, parts), ["request-body-all-of-added ERR", "new-optional-request-property INFO"], ["request-body-all-of-removed INFO", "request-property-removed WARN"])
case(C, "all-of-inline-added", pb({"allOf": [ref("Named")]}, parts), pb({"allOf": [ref("Named"), obj({"age": I}, ["age"])]}, parts), ["request-body-all-of-added ERR", "new-required-request-property ERR"], ["request-body-all-of-removed INFO", "request-property-removed WARN"])
case(C, "property-all-of-added", pb(obj({"pet": {"allOf": [ref("Named")]}}), parts), pb(obj({"pet": {"allOf": [ref("Named"), ref("Aged")]}}), parts), ["request-property-all-of-added ERR", "new-optional-request-property INFO"], ["request-property-all-of-removed INFO", "request-property-removed WARN"])
case(C, "response-all-of-removed", pr({"allOf": [ref("Named"), ref("Aged")]}, parts), pr({"allOf": [ref("Named")]}, parts), ["response-body-all-of-removed ERR", "response-optional-property-removed WARN"], ["response-body-all-of-added INFO", "response-optional-property-added INFO"])
case(C, "request-body-wrapped-in-one-of", pb(obj({"foo": S, "bar": S}, ["foo"])), pb({"oneOf": [obj({"foo": S}, ["foo"]), obj({"bar": S})]}),
     ["request-body-wrapped-in-one-of ERR"], ["request-body-one-of-removed ERR", "request-body-one-of-removed ERR", "request-body-type-changed ERR", "new-required-request-property ERR", "new-optional-request-property INFO"],
     note="moving an object's properties into oneOf alternatives is one wrapping change, not removals")
case(C, "response-body-wrapped-in-one-of", pr(obj({"id": I, "kind": S}, ["id"])), pr({"oneOf": [obj({"id": I}, ["id"]), obj({"kind": S})]}),
     ["response-body-wrapped-in-one-of ERR"], ["response-body-one-of-removed INFO", "response-body-one-of-removed INFO", "response-body-type-specialized INFO", "response-required-property-added INFO", "response-optional-property-added INFO"])

# --- levels oasdiff reports differently from a plain reading
L = "levels"
case(L, "request-property-became-read-only", pb(obj({"id": S, "name": S})), pb(obj({"id": {"type": "string", "readOnly": True}, "name": S})), ["request-optional-property-became-read-only INFO"], ["request-optional-property-became-not-read-only INFO"])
case(L, "response-property-became-not-write-only", pr(obj({"id": I, "pw": {"type": "string", "writeOnly": True}}, ["id", "pw"])), pr(obj({"id": I, "pw": S}, ["id", "pw"])), ["response-required-property-became-not-write-only WARN"], ["response-required-property-became-write-only INFO"])
case(L, "response-optional-property-removed", pr(obj({"id": I, "nick": S}, ["id"])), pr(obj({"id": I}, ["id"])), ["response-optional-property-removed WARN"], ["response-optional-property-added INFO"])
secdoc = lambda security: doc({"/pets": {"get": op(operationId="list", **({"security": security} if security is not None else {}))}}, {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}, "oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://auth.example.org/token", "scopes": {"read": "r"}}}}}}, security=[{"key": []}])
case(L, "operation-security-added", secdoc(None), secdoc([{"oauth": ["read"]}]), ["api-security-added INFO"], ["api-security-removed ERR"], note="oasdiff compares an operation's own security list; an override appearing is INFO")
case(L, "response-pattern-changed", pr(obj({"code": {"type": "string", "pattern": "^[A-Z]+$"}})), pr(obj({"code": {"type": "string", "pattern": "^[A-Z0-9]+$"}})), ["response-property-pattern-changed WARN"], ["response-property-pattern-changed WARN"])

write_cases()
