"""Per-seat views (API.md, "A View") and the worlds sampled from them.

A view hides exactly the cards the seat may not see and keeps everything public; a sampled
world is a valid state (`build` accepts its dump) with the same view, and respects every
constraint the view reveals: counts, shown cards, known voids."""

from __future__ import annotations

import random

import pytest

from rules.ai import complete
from rules.cards import bit_list
from rules.durak import GAME as DURAK
from rules.durak import named
from rules.game import Move
from rules.ganjifa import GAME as GANJIFA
from rules.ganjifa import SUIT_MASK as GANJIFA_SUIT
from rules.tarot import GAME as TAROT
from rules.tarot import ORDINARY, SUIT_MASK, TRUMPS
from schemas.registry import GAMES
from schemas.views import HIDDEN
from tests.support.tarot_deals import bid, chelem, deal, discard, suit, trumps
from tests.support.tarot_deals import cards as tarot_cards
from tests.test_ganjifa import make as ganjifa_make

VIEW = "/v1/games/{game}/view"
# The hidden places of each game beside the hands (rules View.hidden), and the fields of
# the JSON state that may hold "?" in a view.
HIDDEN_FIELDS = {"durak": {"hands", "stock"}, "tarot": {"hands", "chien", "ecart"},
                 "ganjifa": {"hands"}}


def states(game_id: str, deals: int, every: int = 1):
    """States of random deals, every `every` moves, with the final state of each deal."""
    game = GAMES[game_id].game
    for deal_no in range(deals):
        rng = random.Random(deal_no)
        state = game.deal(rng)
        step = 0
        while True:
            if step % every == 0 or game.to_act(state) is None:
                yield state
            if game.to_act(state) is None:
                break
            state = game.apply(state, complete(rng.choice(game.legal_moves(state)), rng))
            step += 1


def reload(game_id: str, state):
    """`build` over the JSON dump: the state is valid and round-trips."""
    schemas = GAMES[game_id]
    fields = schemas.requests["state"].load({"state": schemas.dump_state(state)})["state"]
    return schemas.game.build(**fields)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_views_hide_only_hidden_cards_and_sampled_worlds_fit_them(game_id):
    schemas = GAMES[game_id]
    game = schemas.game
    rng = random.Random(1)
    checked = 0
    for state in states(game_id, 6, every=3):
        dumped = schemas.dump_state(state)
        for seat in range(game.players):
            view = game.observe(state, seat)
            shown = GAMES[game_id].dump_view(view)
            # Everything public is kept as it is; hidden cards only in the hidden fields.
            for key, value in dumped.items():
                if key not in HIDDEN_FIELDS[game_id]:
                    assert shown[key] == value, (key, shown[key], value)
            assert shown["hands"][seat] == dumped["hands"][seat]
            for field in HIDDEN_FIELDS[game_id]:
                piles = shown[field] if field == "hands" else [shown[field]]
                full = dumped[field] if field == "hands" else [dumped[field]]
                for pile, whole in zip(piles, full, strict=True):
                    assert len(pile) == len(whole)
                    assert all(c == HIDDEN or c in whole for c in pile)
            world = game.sample(view, rng)
            assert reload(game_id, world) == world
            assert game.observe(world, seat) == view
            assert hash(game.observe(world, seat)) == hash(view)
            assert GAMES[game_id].dump_view(game.observe(world, seat)) == shown
            checked += 1
    assert checked > 100


def test_durak_view_hides_the_other_hand_and_the_stock_but_the_turned_card():
    state = DURAK.deal(random.Random(4))
    for seat in (0, 1):
        shown = GAMES["durak"].dump_view(DURAK.observe(state, seat))
        assert set(shown["hands"][1 - seat]) == {HIDDEN} and len(shown["hands"][1 - seat]) == 6
        assert shown["stock"][:-1] == [HIDDEN] * 23
        assert shown["stock"][-1] == GAMES["durak"].dump_state(state)["stock"][-1]


def test_a_view_differs_when_a_visible_card_differs():
    state = DURAK.deal(random.Random(4))
    moved = DURAK.apply(state, DURAK.legal_moves(state)[0])
    assert DURAK.observe(state, 0) != DURAK.observe(moved, 0)
    # The seat's own hand is part of its view; the other seat's is not.
    world = DURAK.sample(DURAK.observe(state, 0), random.Random(9))
    world, state = named(world), named(state)
    assert world.hands[0] == state.hands[0] and world.hands[1] != state.hands[1]
    assert DURAK.observe(world, 0) == DURAK.observe(state, 0)
    assert DURAK.observe(world, 1) != DURAK.observe(state, 1)


def poignee_deal():
    """Seat 0 takes a garde holding the four Kings and 15 trumps: it must lay T2 in the écart
    (T5), then shows T2–T16 as a triple poignée (T8)."""
    s = bid(deal(["KS KH KD KC " + trumps(2, 15), "", "", ""], "1S 2S 3S 4S 5S T16"),
            "garde", "pass", "pass", "pass")
    s = chelem(discard(s, "1S 2S 3S 4S 5S T2"))
    return TAROT.play(s, Move(0, "poignee", cards=tuple(tarot_cards(trumps(2, 16)))))[0]


def test_tarot_taker_sees_its_ecart_defenders_only_its_trumps():
    s = poignee_deal()
    taker = GAMES["tarot"].dump_view(TAROT.observe(s, 0))
    assert taker["ecart"] == ["1S", "2S", "3S", "4S", "5S", "T2"]
    for seat in (1, 2, 3):
        shown = GAMES["tarot"].dump_view(TAROT.observe(s, seat))
        assert shown["ecart"] == ["T2"] + [HIDDEN] * 5
        assert shown["chien_shown"] == ["1S", "2S", "3S", "4S", "5S", "T16"]
        assert shown["poignees"] == [{"seat": 0, "cards": trumps(2, 16).split()}]
        assert shown["hands"][0] == [HIDDEN] * 18


def test_tarot_samples_keep_shown_cards_with_the_taker_and_the_ecart_ordinary():
    s = poignee_deal()
    view = TAROT.observe(s, 2)
    rng = random.Random(3)
    chien_shown = s.chien_shown
    poignee = s.poignees[0][1]
    for _ in range(200):
        w = TAROT.sample(view, rng)
        assert TAROT.observe(w, 2) == view
        assert chien_shown & ~w.ecart & ~w.hands[0] == 0  # T5: the shown chien is the taker's
        assert poignee & ~w.ecart & ~w.hands[0] == 0  # T8: shown trumps stay shown
        assert w.ecart & ~TRUMPS & ~ORDINARY == 0  # T5: never a King or a bout
        assert w.hands[0] & ORDINARY == 0  # T5: a trump in the écart means no ordinary left


def test_tarot_chien_is_hidden_until_shown_and_always_in_garde_sans():
    s = deal(["KS KH KD KC " + trumps(2, 15), "", "", ""], "1S 2S 3S 4S 5S T16")
    for seat in range(4):
        assert GAMES["tarot"].dump_view(TAROT.observe(s, seat))["chien"] == [HIDDEN] * 6
    sans = bid(s, "garde_sans", "pass", "pass", "pass")
    assert GAMES["tarot"].dump_view(TAROT.observe(sans, 0))["chien"] == [HIDDEN] * 6
    garde = bid(s, "garde", "pass", "pass", "pass")
    shown = GAMES["tarot"].dump_view(TAROT.observe(garde, 1))
    assert shown["chien"] == [] and len(shown["chien_shown"]) == 6
    assert len(shown["hands"][0]) == 24


def voids(state) -> list[int]:
    """Who failed to follow which suit (T10, T11), read off the tricks: a mask a seat of
    the cards it cannot hold."""
    void = [0, 0, 0, 0]
    for leader, cards, _ in [*state.tricks, (state.leader, state.trick, None)]:
        led = next((c for c in cards if c != 77), None)
        if led is None:
            continue
        suit = next(i for i in range(4) if SUIT_MASK[i] >> led & 1) if led < 56 else None
        for j, c in enumerate(cards):
            if c == 77 or j <= cards.index(led):
                continue
            void[(leader + j) % 4] |= shown_void(suit, c)
    return void


def shown_void(suit: int | None, card: int) -> int:
    """What a card played on a lead of `suit` (None: a trump) shows its player lacks: the
    suit, when it is not of it; the trumps too, when it is no trump either."""
    followed = suit is not None and SUIT_MASK[suit] >> card & 1
    void = SUIT_MASK[suit] if suit is not None and not followed else 0
    if not followed and not TRUMPS >> card & 1:
        void |= TRUMPS
    return void


def test_tarot_samples_respect_voids_revealed_by_past_and_current_tricks():
    rng = random.Random(5)
    checked = 0
    for state in states("tarot", 30, every=5):
        if state.phase != "play" or not state.tricks:
            continue
        seat = state.to_act
        view = TAROT.observe(state, seat)
        void = voids(state)
        for _ in range(5):
            w = TAROT.sample(view, rng)
            for s in range(4):
                assert w.hands[s] & void[s] == 0, (s, bit_list(w.hands[s] & void[s]))
        checked += 1
    assert checked > 50


def test_tarot_annulled_petit_sec_deal_samples_a_petit_sec():
    s = deal(["", "T1 " + suit("S") + " 1H 2H 3H", "", ""], annulled=True)
    view = TAROT.observe(s, 0)
    for seed in range(20):
        w = TAROT.sample(view, random.Random(seed))
        assert TAROT.observe(w, 0) == view
        assert reload("tarot", w) == w  # build derives "over" only from a petit sec (T3)
    assert GAMES["tarot"].dump_view(view)["result"] == {"players": 4, "annulled": "petit_sec",
                                                  "scores": [0] * 4}


def test_tarot_view_result_at_the_end_is_the_settlement():
    s = poignee_deal()
    rng = random.Random(8)
    while s.phase != "over":
        s = TAROT.apply(s, complete(rng.choice(TAROT.legal_moves(s)), rng))
    for seat in range(4):
        assert GAMES["tarot"].dump_view(TAROT.observe(s, seat))["result"] == TAROT.settlement(s)


def test_ganjifa_samples_respect_the_void_of_the_current_trick():
    # Seat 1 did not follow Matsya and played Varaha: it lacks Matsya and Kurma (G6).
    s = ganjifa_make([["9MAT", "8MAT", "1KUR", "2KUR", "6PAR"],
                      ["1VAR", "RNAR", "7PAR", "8PAR", "9PAR"],
                      ["3MAT", "4MAT", "5KUR", "1BAL", "2BAL", "3BAL"]],
                     leader=0, trick=["10MAT", "3VAR"])
    view = GANJIFA.observe(s, 2)
    rng = random.Random(1)
    for _ in range(100):
        w = GANJIFA.sample(view, rng)
        assert GANJIFA.observe(w, 2) == view and reload("ganjifa", w) == w
        assert w.hands[1] & (GANJIFA_SUIT[0] | GANJIFA_SUIT[1]) == 0


def test_ganjifa_trump_raja_stays_with_the_opener_before_the_opening_lead():
    s = GANJIFA.deal(random.Random(3))
    for seat in range(3):
        if seat == s.leader:
            continue
        w = GANJIFA.sample(GANJIFA.observe(s, seat), random.Random(seat))
        assert reload("ganjifa", w) == w  # G5: build checks that the opener holds it
        assert GANJIFA.legal_moves(w) == GANJIFA.legal_moves(s)


# -- the endpoint ------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_view_endpoint_answers_the_view_and_a_view_is_never_a_state(client, game_id):
    schemas = GAMES[game_id]
    state = schemas.game.deal(random.Random(2))
    dumped = schemas.dump_state(state)
    for seat in range(schemas.game.players):
        r = client.post(VIEW.format(game=game_id), json={"state": dumped, "seat": seat})
        assert r.status_code == 200
        assert r.json == {"view": GAMES[game_id].dump_view(schemas.game.observe(state, seat))}
        for template in ("legal-moves", "view"):
            bad = client.post(f"/v1/games/{game_id}/{template}",
                              json={"state": r.json["view"], "seat": seat}
                              if template == "view" else {"state": r.json["view"]})
            assert bad.status_code == 422
            assert any(e["field"].startswith("state.hands") for e in bad.json["errors"])


def test_view_endpoint_needs_a_seat_in_range(client):
    dumped = GAMES["durak"].dump_state(DURAK.deal(random.Random(2)))
    for body, field in (({"state": dumped}, "seat"), ({"state": dumped, "seat": 2}, "seat"),
                        ({"seat": 0}, "state")):
        r = client.post(VIEW.format(game="durak"), json=body)
        assert r.status_code == 422 and r.json["errors"][0]["field"] == field
