"""openapi.yaml is what contract/build.py builds from the code and contract/texts.yaml: the
served document is the built one, a field added to a schema shows in it, texts.yaml may
only annotate what the schemas say, and the shapes written by hand there (the moves, the
deal request, the score sheet) name exactly the fields the marshmallow schemas load."""

from __future__ import annotations

import copy

import pytest
import yaml
from marshmallow import fields

from contract import build, schemas
from schemas.registry import GAMES
from schemas.tarot import SCORE_SHEET
from service.app import TestingConfig, create_app


@pytest.fixture(scope="module")
def built() -> dict:
    return build.document()


def test_openapi_yaml_is_the_built_document_and_is_served(built):
    text = build.dumped(built)
    assert build.OPENAPI.read_text() == text, "run python -m contract"
    served = create_app(TestingConfig).test_client().get("/openapi.yaml")
    assert served.get_data(as_text=True) == text


def test_a_field_added_to_a_state_schema_is_in_the_document(monkeypatch):
    state = schemas.state_schema("durak")
    monkeypatch.setitem(state._declared_fields, "dealer_name", fields.String())
    made = schemas.components()["DurakStateFields"]
    assert made["properties"]["dealer_name"] == {"type": "string"}



def test_a_nested_schema_no_table_names_is_named_after_its_game_and_class(monkeypatch):
    # A new game's nested schemas need no line in contract/schemas.py's NESTED.
    monkeypatch.delitem(schemas.NESTED, "ganjifa")
    made = schemas.components()
    tricks = made["GanjifaStateFields"]["properties"]["tricks"]
    assert tricks["items"] == {"$ref": "#/components/schemas/GanjifaCompletedTrick"}
    assert {"GanjifaCompletedTrick", "GanjifaTrickEntry"} <= set(made)
    assert "GanjifaTrick" not in made

@pytest.mark.parametrize("text, where", [
    ({"properties": {"hands": {"maxItems": 30}}}, "maxItems"),  # a bound the schema has not
    ({"properties": {"dealer_name": {"description": "x"}}}, "no field"),
    ({"required": ["trump"]}, "required"),
    ({"properties": {"hands": {"oneOf": []}}}, "oneOf"),  # a hook only at a schema's top
])
def test_texts_may_only_annotate_a_generated_schema(text, where):
    made = schemas.components()["DurakStateFields"]
    with pytest.raises(build.ContractError, match=where):
        build.overlay(made, text, "DurakStateFields")


def test_annotations_and_a_schemas_hooks_are_taken():
    made = schemas.components()["ReplayRequest"]
    out = build.overlay(made, {"description": "d", "oneOf": [{"required": ["deal"]}],
                               "properties": {"include": {"default": "final"}}}, "R")
    assert out["description"] == "d" and out["oneOf"] == [{"required": ["deal"]}]
    assert out["properties"]["include"] == {**made["properties"]["include"],
                                            "default": "final"}


def test_a_path_not_served_or_not_described_is_an_error():
    texts = yaml.safe_load(build.TEXTS.read_text())
    paths = copy.deepcopy(texts["paths"])
    paths["/v1/games/{game}/shuffle"] = {"post": {}}
    with pytest.raises(build.ContractError, match="described, not served"):
        build.check_paths(paths)
    del paths["/v1/games/{game}/shuffle"], paths["/v1/games/{game}/move"]
    with pytest.raises(build.ContractError, match="served, not described"):
        build.check_paths(paths)


def properties_of(schema: dict, components: dict) -> set[str]:
    """Every property a hand-written schema names, through its unions and references."""
    if "$ref" in schema:
        return properties_of(components[schema["$ref"].rsplit("/", 1)[1]], components)
    out = set(schema.get("properties", {}))
    for union in ("oneOf", "anyOf", "allOf"):
        for part in schema.get(union, ()):
            out |= properties_of(part, components)
    return out


def loaded_fields(schema) -> set[str]:
    return {f.data_key or name for name, f in schema.load_fields.items()}


def test_the_hand_written_shapes_name_the_fields_the_schemas_load(built):
    components = built["components"]["schemas"]
    for game_id, game in GAMES.items():
        move = game.requests["move"].schema.fields["move"].nested
        assert properties_of(components[f"{game_id.title()}Move"], components) == \
            loaded_fields(move()), game_id
    dealt = set().union(*(loaded_fields(g.requests["deal"].schema) for g in GAMES.values()))
    assert properties_of(components["DealRequest"], components) == dealt
    assert properties_of(components["TarotScoreSheet"], components) == \
        loaded_fields(SCORE_SHEET)
