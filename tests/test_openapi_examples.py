"""Every operation of openapi.yaml carries request and response examples,
every example is valid against the schema beside it, and each request example, sent to the
service, is answered with the response example of the same name."""

from __future__ import annotations

from urllib.parse import quote

import pytest
import yaml
from jsonschema import Draft202012Validator

from contract.examples import language_of
from tests.openapi_check import (
    DOC_URI,
    METHODS,
    OPENAPI_PATH,
    pointer,
    registry,
    resolve,
    spec,
)


def media_types():
    """(where, operation, part, status, media type object, JSON pointer to it) of every
    request body and response of every operation."""
    for path, item in spec()["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            where = f"{method.upper()} {path}"
            body = operation.get("requestBody")
            if body is not None:
                for name, media in body["content"].items():
                    yield where, "request", None, media, pointer(
                        "paths", path, method, "requestBody", "content", name)
            for status, response in operation["responses"].items():
                node, parts = resolve(response)
                parts = parts or ["paths", path, method, "responses", status]
                for name, media in node.get("content", {}).items():
                    yield where, "response", status, media, pointer(*parts, "content", name)


def examples_of(media: dict) -> dict:
    """{name: value} of a media type's `examples` (their $refs followed) and `example`."""
    out = {name: resolve(example)[0]["value"]
           for name, example in media.get("examples", {}).items()}
    if "example" in media:
        out[""] = media["example"]
    return out


def test_every_operation_has_request_and_response_examples():
    seen: dict[str, set] = {}
    for where, part, status, media, _ in media_types():
        if examples_of(media):
            seen.setdefault(where, set()).add(part if part == "request" else status)
    for path, item in spec()["paths"].items():
        for method in METHODS:
            if method in item:
                where = f"{method.upper()} {path}"
                # / answers a redirect to the table, its one example
                assert {"200", "302"} & seen.get(where, set()), f"{where}: no 200 example"
                if "requestBody" in item[method]:
                    assert "request" in seen[where], f"{where}: no request example"


def test_problems_have_examples_of_each_status():
    statuses = {status for _, part, status, media, _ in media_types()
                if part == "response" and status != "200" and examples_of(media)}
    assert {"400", "404", "413", "422"} <= statuses
    # 405 is global, answered for the methods a path does not list
    allowed = spec()["components"]["responses"]["MethodNotAllowed"]
    assert examples_of(allowed["content"]["application/problem+json"])


def every_example():
    for where, part, status, media, at in media_types():
        for name, value in examples_of(media).items():
            yield pytest.param(at, value, id=f"{where} {part} {status or ''} {name}".strip())


@pytest.mark.parametrize("at, value", list(every_example()))
def test_every_example_is_valid_against_its_schema(at, value):
    ref = f"{DOC_URI}#{quote(at + '/schema', safe='/~')}"
    Draft202012Validator({"$ref": ref}, registry=registry()).validate(value)


def pairs():
    """(path template, method, name, request example, status, response example) for each
    request example with a response example of the same name in the same operation."""
    for path, item in spec()["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            answers = {}
            for status, response in operation["responses"].items():
                for media in resolve(response)[0].get("content", {}).values():
                    for name, value in examples_of(media).items():
                        answers[name] = (int(status), value)
            body = operation.get("requestBody")
            requests = examples_of(body["content"]["application/json"]) if body else {}
            if method == "get":  # a GET's 200 examples are named after the path's parameter
                # (a GET without a 200, as / that redirects to the table, has none)
                ok = resolve(operation["responses"].get("200", {}))[0].get("content", {})
                answers = {name: (200, value) for media in ok.values()
                           for name, value in examples_of(media).items() if name}
                requests = dict.fromkeys(answers)
            for name, request in requests.items():
                if name in answers:
                    yield pytest.param(path, method, name, request, *answers[name],
                                       id=f"{method.upper()} {path} {name}")


@pytest.mark.parametrize("path, method, name, sent, status, answer", list(pairs()))
def test_each_example_is_what_the_service_answers(client, path, method, name, sent,
                                                  status, answer):
    game = name.split("-")[0] if name.split("-")[0] in ("durak", "tarot", "ganjifa") \
        else "durak"
    url = path.replace("{game}", game).replace("{slug}", name)
    url = url.replace("{name}", name.partition("-")[2])  # durak-AS: the Ace of Spades
    headers = language_of(name)  # durak-illegal-ru: asked in Russian
    r = client.get(url, headers=headers) if method == "get" else \
        client.post(url, json=sent, headers=headers)
    got = r.get_json() if r.is_json else r.get_data(as_text=True)
    if path.endswith("/ai-move") and r.status_code == 200:
        got["elapsed_ms"] = answer["elapsed_ms"]  # the one field a run cannot repeat
    assert (r.status_code, got) == (status, answer)


def test_pairs_cover_every_operation_with_a_body():
    covered = {(p.values[0], p.values[1]) for p in pairs()}
    for path, item in spec()["paths"].items():
        for method in METHODS:
            if method in item and "requestBody" in item[method]:
                assert (path, method) in covered, f"{method.upper()} {path}"


class UniqueKeyLoader(yaml.SafeLoader):
    """PyYAML keeps the last of two equal keys; generators (ruamel) refuse the document."""

    def construct_mapping(self, node, deep=False):
        keys = [self.construct_object(k, deep=deep) for k, _ in node.value]
        repeated = {k for k in keys if keys.count(k) > 1}
        assert not repeated, f"line {node.start_mark.line + 1}: repeated keys {repeated}"
        return super().construct_mapping(node, deep=deep)


def test_no_mapping_repeats_a_key():
    yaml.load(OPENAPI_PATH.read_bytes(), Loader=UniqueKeyLoader)
