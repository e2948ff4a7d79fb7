"""openapi.yaml, built: contract/texts.yaml says what only people can (the descriptions,
the operations' texts, the shapes of the answers and the games' records), and the rest is
made from the code it describes:

- the components that schemas/ defines (each game's state, the request bodies) converted
  from its marshmallow schemas by contract/schemas.py, where texts.yaml may only annotate
  them (`description`, `default`…: ANNOTATIONS), and add, at a schema's top, what its
  validators check across fields (HOOKS);
- the examples, asked of the service itself (contract/examples.py);
- the paths, which must be exactly the operations the service answers: service/router.py's
  table and the Flask app's routes.

`python -m contract` writes openapi.yaml; tests/test_contract.py fails when the file is not
what this builds.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from contract import examples, schemas

HERE = Path(__file__).resolve().parent
TEXTS = HERE / "texts.yaml"
OPENAPI = HERE.parent / "openapi.yaml"
ANNOTATIONS = frozenset({"description", "default", "examples", "title", "deprecated",
                         "$comment"})
HOOKS = frozenset({"oneOf", "anyOf", "allOf", "not", "if", "then", "else"})
METHODS = ("get", "put", "post", "delete", "options", "head", "patch")


class ContractError(ValueError):
    """texts.yaml and the code disagree."""


def overlay(made: dict, text: dict, where: str, top: bool = True) -> dict:
    """`made` (a generated schema) with the annotations `text` gives it; anything else in
    `text`, or a property the schema has not, is an error: the schema says it, or it is not
    so."""
    out = dict(made)
    for key, value in text.items():
        if key == "properties":
            properties = dict(out.get("properties", {}))
            for name, annotation in value.items():
                if name not in properties:
                    raise ContractError(f"{where}: no field {name!r} in the schema")
                properties[name] = overlay(properties[name], annotation, f"{where}.{name}",
                                           top=False)
            out["properties"] = properties
        elif key in ANNOTATIONS or (top and key in HOOKS):
            out[key] = value
        else:
            raise ContractError(f"{where}: {key!r} is the schema's to say, not texts.yaml's")
    return out


def component_schemas(texts: dict) -> dict:
    """The component schemas in texts.yaml's order, the generated ones annotated."""
    made = schemas.components()
    out = {}
    for name, text in texts.items():
        if name in made:
            generated = made.pop(name)
            if name.endswith("StateFields"):  # answers are open: a State may gain fields
                generated.pop("additionalProperties", None)
            out[name] = overlay(generated, text or {}, name)
        else:
            out[name] = text
    if made:
        raise ContractError(f"texts.yaml gives no place to {sorted(made)}")
    return out


def served() -> set[tuple[str, str]]:
    """Every (method, path template) the service answers, as the document spells them."""
    from service.app import TestingConfig, create_app
    from service.router import TABLE, templates

    out = {("post", path) for path in templates(TABLE)}
    for rule in create_app(TestingConfig).url_map.iter_rules():
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        out |= {(m.lower(), path.replace("{game_id}", "{game}"))
                for m in (rule.methods or ()) if m not in ("HEAD", "OPTIONS")}
    return out


def check_paths(paths: dict) -> None:
    described = {(method, path) for path, item in paths.items() for method in item
                 if method in METHODS}
    if described != served():
        raise ContractError(f"described, not served: {sorted(described - served())}; "
                            f"served, not described: {sorted(served() - described)}")


def check_references(document: dict) -> None:
    """Every `$ref` names a component, and every example is referred to."""
    text = yaml.safe_dump(document)
    named = set(re.findall(r"#/components/(\w+)/([\w.-]+)", text))
    missing = [f"{kind}/{name}" for kind, name in named
               if name not in document["components"].get(kind, {})]
    if missing:
        raise ContractError(f"references to nothing: {sorted(missing)}")
    unused = set(document["components"]["examples"]) - {n for k, n in named if k == "examples"}
    if unused:
        raise ContractError(f"examples no operation shows: {sorted(unused)}")


def document() -> dict[str, Any]:
    texts = yaml.safe_load(TEXTS.read_text())
    components = texts["components"]
    components["schemas"] = component_schemas(components["schemas"])
    components["examples"] = {**components.get("examples", {}), **examples.components()}
    check_paths(texts["paths"])
    check_references(texts)
    return texts


class Dumper(yaml.SafeDumper):
    """YAML as a person writes it: a text of several lines as a block, lists and maps of
    plain values on one line."""


Dumper.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None))


def dumped(doc: dict) -> str:
    return yaml.dump(doc, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=96,
                     default_flow_style=None)
