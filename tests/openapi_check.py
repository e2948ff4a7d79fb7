"""Check HTTP answers against openapi.yaml.

`assert_conforms(method, path_template, status, response)` validates one answer (a
`requests.Response` or a Flask/Werkzeug test response) against the schema the document
gives for that operation, status and content type. The document is loaded once; one
JSON Schema (Draft 2020-12) validator is built per operation, status and media type, over a
`referencing` registry holding the whole document, so `$ref: '#/components/...'` resolves.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from urllib.parse import quote

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi.yaml"
DOC_URI = "urn:cardavia:openapi"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


@cache
def spec() -> dict:
    """openapi.yaml, parsed once."""
    return yaml.safe_load(OPENAPI_PATH.read_bytes())


@cache
def registry() -> Registry:
    resource = Resource.from_contents(spec(), default_specification=DRAFT202012)
    return Registry().with_resource(DOC_URI, resource)


def pointer(*parts: str) -> str:
    """A JSON Pointer (RFC 6901) to the document node under `parts`."""
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


def resolve(node: dict) -> tuple[dict, list[str]]:
    """A Response Object, following a `$ref` to components (as the pointer parts)."""
    ref = node.get("$ref")
    if ref is None:
        return node, []
    assert ref.startswith("#/"), ref
    parts = [p.replace("~1", "/").replace("~0", "~") for p in ref[2:].split("/")]
    target = spec()
    for p in parts:
        target = target[p]
    return target, parts


def operations() -> set[tuple[str, str]]:
    """Every (METHOD, path template) the document describes."""
    return {(m.upper(), path) for path, item in spec()["paths"].items()
            for m in METHODS if m in item}


def response_object(method: str, path: str, status: int) -> tuple[dict, list[str]]:
    """The Response Object for an answer and its location in the document.

    405 is global (components/responses/MethodNotAllowed) for a documented path's
    undocumented methods; anything else must be listed by the operation."""
    paths = spec()["paths"]
    assert path in paths, f"{path} is not in openapi.yaml"
    operation = paths[path].get(method.lower())
    if operation is None:
        assert status == 405, f"{method} {path} is not documented, yet answered {status}"
        return resolve({"$ref": "#/components/responses/MethodNotAllowed"})
    responses = operation["responses"]
    key = str(status) if str(status) in responses else "default"
    assert key in responses, f"{method} {path} does not document status {status}"
    node, parts = resolve(responses[key])
    return node, parts or ["paths", path, method.lower(), "responses", key]


@cache
def validator(method: str, path: str, status: int, media_type: str) -> Draft202012Validator:
    response, where = response_object(method, path, status)
    content = response.get("content", {})
    assert media_type in content, (
        f"{method} {path} {status}: content type {media_type!r} is not among {sorted(content)}")
    schema_at = pointer(*where, "content", media_type, "schema")
    ref = f"{DOC_URI}#{quote(schema_at, safe='/~')}"
    return Draft202012Validator({"$ref": ref}, registry=registry())


def _parts(response) -> tuple[int, str, bytes, object]:
    """(status, Content-Type, body, headers) of a requests or a Werkzeug response."""
    if hasattr(response, "get_data"):  # Flask / Werkzeug test response
        return response.status_code, response.headers.get("Content-Type", ""), \
            response.get_data(), response.headers
    return response.status_code, response.headers.get("Content-Type", ""), \
        response.content, response.headers


def parse(media_type: str, body: bytes):
    if media_type == "application/json" or media_type.endswith("+json"):
        return json.loads(body)
    if media_type in ("application/yaml", "application/x-yaml", "text/yaml"):
        return yaml.safe_load(body)
    raise AssertionError(f"no parser for {media_type}")


def assert_conforms(method: str, path_template: str, status, response=None):
    """Assert that `response` answers `method path_template` with `status` as openapi.yaml
    says: the status, a documented content type, the body valid against its schema, and
    the required headers. Returns the parsed body.

    `assert_conforms(method, path_template, response)` (no status) checks the response
    against whatever status it has, which must be one the operation documents."""
    if response is None:
        status, response = None, status
    method = method.upper()
    got_status, content_type, body, headers = _parts(response)
    if status is None:
        status = got_status
    assert got_status == status, f"{method} {path_template}: {got_status}, not {status}: " \
        f"{body[:500]!r}"
    media_type = content_type.split(";")[0].strip().lower()
    response_obj, _ = response_object(method, path_template, status)
    for name, header in response_obj.get("headers", {}).items():
        if header.get("required"):
            assert headers.get(name), f"{method} {path_template} {status}: no {name} header"
    check = validator(method, path_template, status, media_type)
    data = parse(media_type, body)
    problem = first_error(check, data)
    assert problem is None, f"{method} {path_template} {status} breaks openapi.yaml: {problem}"
    return data


def first_error(check: Draft202012Validator, data) -> str | None:
    """The most relevant errors of `data` against a validator, or None when it is valid."""
    errors = list(check.iter_errors(data))
    if not errors:
        return None
    found = [leaf for e in errors for leaf in leaves(e)]
    return "; ".join(f"at {'/'.join(map(str, e.absolute_path)) or '<body>'}: {e.message[:300]}"
                     for e in found[:3])


def leaves(error: ValidationError) -> list[ValidationError]:
    """The errors under a oneOf/anyOf error, in the branch that came closest (the fewest
    errors): a state of the right game rather than every game's complaints."""
    if not error.context:
        return [error]
    branches: dict = {}
    for e in error.context:
        branches.setdefault(e.relative_schema_path[0], []).append(e)
    closest = min(branches.values(), key=len)
    return [leaf for e in closest for leaf in leaves(e)]


@cache
def request_validator(method: str, path: str) -> Draft202012Validator:
    at = pointer("paths", path, method.lower(), "requestBody", "content", "application/json",
                 "schema")
    return Draft202012Validator({"$ref": f"{DOC_URI}#{quote(at, safe='/~')}"},
                                registry=registry())


def request_error(method: str, path_template: str, body) -> str | None:
    """Why openapi.yaml refuses a JSON request body for the operation, or None."""
    return first_error(request_validator(method.upper(), path_template), body)


def assert_request_conforms(method: str, path_template: str, body) -> None:
    """Assert that a JSON request body is one openapi.yaml accepts for the operation."""
    problem = request_error(method, path_template, body)
    assert problem is None, f"{method} {path_template} request breaks openapi.yaml: {problem}"


def undescribed(method: str, path_template: str, response) -> set[str]:
    """The fields of a JSON answer that openapi.yaml does not describe, as JSON Pointers
    (an item of a list written `*`): response bodies are open, so `assert_conforms` lets
    them pass, yet a client generated from the document would never read them. A field is
    described when any branch that could hold its object (oneOf, anyOf, allOf, if/then/
    else) lists it, or the object admits other properties."""
    status, content_type, body, _ = _parts(response)
    response_obj, _ = response_object(method.upper(), path_template, status)
    media_type = content_type.split(";")[0].strip().lower()
    found: set[str] = set()
    _undescribed(parse(media_type, body),
                 [response_obj["content"][media_type]["schema"]], "", found)
    return found


def _followed(schema) -> dict:
    """A schema with its `$ref` followed (sibling keywords kept)."""
    while isinstance(schema, dict) and "$ref" in schema:
        target, _ = resolve({"$ref": schema["$ref"]})
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema if isinstance(schema, dict) else {}


def _branches(schema) -> list[dict]:
    schema = _followed(schema)
    found = [schema]
    for key in ("oneOf", "anyOf", "allOf"):
        for branch in schema.get(key, []):
            found += _branches(branch)
    for key in ("if", "then", "else"):
        if key in schema:
            found += _branches(schema[key])
    return found


def _undescribed(data, schemas: list, at: str, found: set[str]) -> None:
    branches = [b for s in schemas for b in _branches(s)]
    if isinstance(data, dict):
        _undescribed_keys(data, branches, at, found)
    elif isinstance(data, list):
        for i, item in enumerate(data):
            subs = [b["items"] for b in branches if isinstance(b.get("items"), dict)]
            subs += [b["prefixItems"][i] for b in branches if i < len(b.get("prefixItems", []))]
            if subs:
                _undescribed(item, subs, f"{at}/*", found)


def _undescribed_keys(data: dict, branches: list, at: str, found: set[str]) -> None:
    """An object's keys: each described by a branch's properties, by its
    additionalProperties, or let in by an open branch."""
    described: dict[str, list] = {}
    for b in branches:
        for name, sub in b.get("properties", {}).items():
            described.setdefault(name, []).append(sub)
    others = [b["additionalProperties"] for b in branches
              if isinstance(b.get("additionalProperties"), dict)]
    open_ = any(b.get("additionalProperties") is True or "patternProperties" in b
                for b in branches)
    for name, value in data.items():
        if name in described:
            _undescribed(value, described[name], f"{at}/{name}", found)
        elif others:
            _undescribed(value, others, f"{at}/{name}", found)
        elif not open_:
            found.add(f"{at}/{name}")


def assert_described(method: str, path_template: str, response) -> None:
    """Assert that openapi.yaml describes every field of a JSON answer."""
    missing = undescribed(method, path_template, response)
    assert not missing, f"{method} {path_template}: openapi.yaml does not describe " \
        f"{sorted(missing)}"
