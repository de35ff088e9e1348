"""Shared by make-fixtures.py and make-fixtures-schema.py: the fixture format of test/fixtures/diff (one base/revision
pair per case, with the ids and levels expected in both directions) and the small builders both write cases with."""
import json, os

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "diff")
S = {"type": "string"}
I = {"type": "integer"}
CASES = {}

def doc(paths, components=None, **top):
    d = {"openapi": "3.0.3", "info": {"title": "Fixture", "version": "1.0.0"}, "paths": paths}
    if components: d["components"] = components
    d.update(top)
    return d

def ok(schema=None, status="200", mt="application/json"):
    r = {"description": "ok"}
    if schema is not None: r["content"] = {mt: {"schema": schema}}
    return {status: r}

def op(**kw):
    o = {"operationId": kw.pop("operationId", "op"), "responses": kw.pop("responses", ok())}
    o.update(kw)
    return o

def body(schema, required=True, mt="application/json"):
    return {"required": required, "content": {mt: {"schema": schema}}}

def obj(props, required=None, **kw):
    s = {"type": "object", "properties": props}
    if required: s["required"] = required
    s.update(kw)
    return s

def case(family, name, base, revision, expect, reverse, versions=None, note=""):
    CASES[(family, name)] = {"description": note or name, "base": base, "revision": revision, "expect": sorted(expect), "reverse": sorted(reverse), **({"versions": versions} if versions else {})}

def write_cases():
    """Writes every case recorded by `case` to ROOT/<family>/<name>.json and prints the count."""
    for (family, name), data in CASES.items():
        folder = os.path.join(ROOT, family)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"{name}.json"), "w") as f:
            json.dump(data, f, indent=2)
            f.write("\n")
    print(f"{len(CASES)} cases")
