"""Ganjifa's deal history, an addition to API.md's state: `tricks` (the completed tricks)
and `dukals` (the captured Dukals), oldest first, optional but both or neither. The history
must agree with G5–G8 and with the state's captured piles; the suits it shows a seat lacks
(G6) bound the worlds the AI samples."""

from __future__ import annotations

import random

import pytest

from bench.reference_ganjifa import highest_ganjifa
from rules.ai import ganjifa_reading as ganjifa_ai
from rules.ai import ganjifa_search
from rules.ai.ganjifa import basic_move
from rules.ai.ganjifa_high import high_move
from rules.ai.levels import choose
from rules.cards import bit_list
from rules.game import InvalidState, Move, NoWorldFits
from rules.ganjifa import DECK, GAME, STRENGTH, SUIT_COUNT, SUIT_MASK, SUIT_OF
from schemas.registry import GAMES

SCHEMAS = GAMES["ganjifa"]
IX = DECK.index


def load(doc: dict):
    return GAME.build(**SCHEMAS.requests["state"].load({"state": doc})["state"])


def faults(doc: dict) -> list[str]:
    with pytest.raises(InvalidState) as e:
        load(doc)
    return [p.field for p in e.value.problems]


def played(seed: int, moves: int | None = None):
    """Deal `seed` played by basic for `moves` moves (to its end by default), and every
    event of the play."""
    state = GAME.deal(random.Random(seed))
    events = []
    while state.to_act is not None and (moves is None or len(events) < moves):
        state, ev = GAME.play(state, basic_move(state, state.to_act, None))
        events.append(ev)
    return state, [e for ev in events for e in ev]


def lacks(trump: int, led: int, played_suit: int) -> set[int]:
    """G6 read directly: a follower who did not follow lacks the led suit, and, unless it
    trumped, every suit from the one after the led suit up to the one it played."""
    if played_suit == led:
        return set()
    out = {led}
    if played_suit != trump:
        s = (led + 1) % SUIT_COUNT
        while s != played_suit:
            out.add(s)
            s = (s + 1) % SUIT_COUNT
    return out


def test_G7_G8_a_dealt_deal_records_every_trick_and_dukal_as_its_events_tell():
    for seed in (0, 1, 4):
        state, events = played(seed)
        doc = SCHEMAS.dump_state(state)
        tricks = [(e["seat"], sorted(e["cards"])) for e in events if e["type"] == "trick_won"]
        dukals = [(e["seat"], sorted(e["cards"])) for e in events
                  if e["type"] == "dukal_captured"]
        assert dukals, seed  # basic leads a Dukal when it can: these deals have some
        assert [(t["winner"], sorted(IX[p["card"]] for p in t["cards"]))
                for t in doc["tricks"]] == tricks
        assert [(d["seat"], sorted(IX[c] for d2 in [d] for c in
                                   [*d2["cards"], *(x for a in d2["discards"]
                                                    for x in a["cards"])]))
                for d in doc["dukals"]] == dukals
        assert doc["tricks"][0]["cards"][0]["card"] == "RRAM"  # G5, by day
        assert load(doc) == state


def test_the_history_is_optional_and_answered_only_when_given():
    state, _ = played(1, 30)
    doc = SCHEMAS.dump_state(state)
    without = {k: v for k, v in doc.items() if k not in ("tricks", "dukals")}
    bare = load(without)
    assert bare.tricks is None and bare.dukals is None and bare.voids == (0, 0, 0)
    move = basic_move(state, state.to_act, None)
    after, _ = GAME.play(bare, move)
    assert "tricks" not in SCHEMAS.dump_state(after)
    full, _ = GAME.play(load(doc), move)
    assert full == GAME.play(state, move)[0]
    assert len(SCHEMAS.dump_state(full)["tricks"]) >= len(doc["tricks"])


def test_G6_the_voids_shown_in_completed_tricks_bound_every_sampled_world():
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        state = GAME.deal(random.Random(seed))
        shown = [set(), set(), set()]
        while state.to_act is not None:
            assert state.voids == tuple(sum(SUIT_MASK[s] for s in shown[p]) for p in range(3))
            seat = state.to_act
            view = GAME.observe(state, seat)
            for _ in range(3):
                world = GAME.sample(view, rng)
                assert GAME.observe(world, seat) == view
                for p in range(3):
                    if p != seat:
                        assert not {SUIT_OF[c] for c in range(120) if world.hands[p] >> c & 1} \
                            & shown[p]
                        checked += bool(shown[p])
            new, events = GAME.play(state, basic_move(state, seat, None))
            for e in events:
                if e["type"] == "trick_won":
                    first, *follow = e["cards"]
                    for j, card in enumerate(follow, 1):
                        shown[(state.leader + j) % 3] |= lacks(
                            state.trump, SUIT_OF[first], SUIT_OF[card])
            state = new
    assert checked > 100


def test_G6_a_void_shown_only_in_a_history_not_given_is_not_assumed():
    """Without the history the worlds may give a seat the suit it showed it lacks: the
    service never invents what the client did not send."""
    state, _ = played(0, 90)
    assert any(state.voids)
    bare = load({k: v for k, v in SCHEMAS.dump_state(state).items()
                 if k not in ("tricks", "dukals")})
    seat = state.to_act
    rng = random.Random(0)
    worlds = [GAME.sample(GAME.observe(bare, seat), rng) for _ in range(200)]
    assert any(w.hands[p] & state.voids[p] for w in worlds for p in range(3) if p != seat)


def _swap_in(doc: dict, a: tuple[str, int], b: tuple[str, int], card_a: str, card_b: str):
    pa, pb = doc[a[0]][a[1]], doc[b[0]][b[1]]
    pa[pa.index(card_a)] = card_b
    pb[pb.index(card_b)] = card_a


def _revoke(doc: dict) -> tuple[dict, str] | None:
    """A trick's follower who did not follow suit is handed a card of the led suit from
    another hand (a card of its own goes back): a revoke, caught at that trick's play."""
    hands = doc["hands"]
    for i in range(len(doc["tricks"]) - 1, -1, -1):
        plays = doc["tricks"][i]["cards"]
        led = SUIT_OF[IX[plays[0]["card"]]]
        for j in (1, 2):
            seat = plays[j]["seat"]
            if SUIT_OF[IX[plays[j]["card"]]] == led or not hands[seat]:
                continue
            for other in range(3):
                led_cards = [c for c in hands[other] if SUIT_OF[IX[c]] == led]
                if other != seat and led_cards:
                    _swap_in(doc, ("hands", other), ("hands", seat), led_cards[0],
                             hands[seat][0])
                    return doc, f"tricks.{i}.cards.{j}.card"
    return None


def _drop_raja(cards: list[str]) -> None:
    cards.remove(next(c for c in cards if c.startswith("R")))


DAMAGE = {
    # G7: the winner of a trick is the highest trump, else the highest of the led suit.
    "winner": (lambda d: d["tricks"][3].update(winner=(d["tricks"][3]["winner"] + 1) % 3),
               {"tricks.3.winner"}),
    # Both or neither.
    "no dukals": (lambda d: d.pop("dukals"), {"dukals"}),
    "no tricks": (lambda d: d.pop("tricks"), {"tricks"}),
    # G5: the first trick is led with the trump Raja; G7: each by the last one's winner.
    "order": (lambda d: d["tricks"].insert(0, d["tricks"].pop(1)),
              {"tricks.0.cards.0.card"}),
    # The captured piles are the tricks and Dukals each seat won.
    "a trick lost": (lambda d: d["tricks"].pop(2), {"captured.{w2}"}),
    "a Dukal lost": (lambda d: d["dukals"].pop(0), {"captured.{d0}"}),
    # G8: a captured Dukal was answered by both opponents, with k cards each.
    "one answer": (lambda d: d["dukals"][0].update(discards=d["dukals"][0]["discards"][:1]),
                   {"dukals.0.discards"}),
    "short answer": (lambda d: d["dukals"][0]["discards"][1]["cards"].pop(),
                     {"dukals.0.discards.1.cards"}),
    # G8: the Raja, the Mantri and a run, of one suit.
    "not a Dukal": (lambda d: _drop_raja(d["dukals"][0]["cards"]), {"dukals.0.cards"}),
    # G1: each card once, in the history too.
    "twice": (lambda d: d["tricks"][4]["cards"][2].update(
        card=d["tricks"][5]["cards"][2]["card"]), {"tricks"}),
}


@pytest.mark.parametrize("name", DAMAGE)
def test_G1_G5_G6_G7_G8_a_history_that_contradicts_the_rules_or_the_piles_is_invalid(name):
    state, _ = played(1, 40)
    doc = SCHEMAS.dump_state(state)
    assert doc["dukals"] and len(doc["tricks"]) > 6
    damage, expected = DAMAGE[name]
    names = {"w2": doc["tricks"][2]["winner"], "d0": doc["dukals"][0]["seat"]}
    damage(doc)
    assert {e.format(**names) for e in expected} <= set(faults(doc))


def test_G6_a_revoke_the_state_shows_is_caught_at_the_trick_it_was_made_in():
    made = 0
    for seed in range(20):
        revoke = _revoke(SCHEMAS.dump_state(played(seed, 45)[0]))
        if revoke:
            doc, path = revoke
            assert path in faults(doc)
            made += 1
    assert made >= 3


def test_the_history_takes_no_part_in_a_valid_state_without_it():
    state, _ = played(4, 50)
    doc = SCHEMAS.dump_state(state)
    doc.pop("tricks")
    doc.pop("dukals")
    assert load(doc) == state._replace(tricks=None, dukals=None, voids=(0, 0, 0))


def test_the_endpoints_deal_extend_show_and_check_the_history(client):
    url = "/v1/games/ganjifa"
    state = client.post(f"{url}/deal", json={"seed": 1}).json["state"]
    assert state["tricks"] == [] and state["dukals"] == []
    for _ in range(3):  # the opening trick
        move = client.post(f"{url}/ai-move", json={"state": state, "level": "basic"}).json
        state = client.post(f"{url}/move", json={"state": state, "move": move["move"]}
                            ).json["state"]
    assert [p["card"] for p in state["tricks"][0]["cards"]][0] == "RRAM"
    view = client.post(f"{url}/view", json={"state": state, "seat": 0}).json["view"]
    assert view["tricks"] == state["tricks"] and view["dukals"] == []
    broken = {**state, "tricks": [{**state["tricks"][0],
                                   "cards": state["tricks"][0]["cards"][:2]}]}
    r = client.post(f"{url}/legal-moves", json={"state": broken})
    assert r.status_code == 422 and r.content_type == "application/problem+json"
    assert any(e["field"].startswith("state.tricks.0.cards") for e in r.json["errors"])
    half = {k: v for k, v in state.items() if k != "dukals"}
    r = client.post(f"{url}/legal-moves", json={"state": half})
    assert r.status_code == 422 and [e["field"] for e in r.json["errors"]] == ["state.dukals"]


def test_what_basic_play_of_the_history_implies_never_excludes_a_card_basic_holds():
    """`modelled` narrows the view by reading the history as basic's play: in deals that
    basic plays in every seat, the true deal always fits it, whichever seat looks. And it
    does narrow: without it the test of the strong level against basic is weaker."""
    narrowed = 0
    for seed in range(12):
        state = GAME.deal(random.Random(seed))
        while state.to_act is not None:
            for seat in range(3):
                view = GAME.observe(state, seat)
                lacks = ganjifa_search.modelled(view).public.voids
                for other in range(3):
                    if other != seat:
                        assert not state.hands[other] & lacks[other], (seed, seat, other)
                        narrowed += bool(lacks[other] & ~state.voids[other])
            state = GAME.apply(state, basic_move(state, state.to_act, None))
    assert narrowed > 1000


def test_the_search_falls_back_to_the_view_when_the_opponents_did_not_play_as_basic():
    """A history that basic's play cannot explain (here: the answer to a Dukal was not
    the answering seat's cheapest cards, which the seat still holds) leaves no world for
    the model; the strong level then searches the view itself and still answers."""
    for seed in range(40):
        state = GAME.deal(random.Random(seed))
        rng = random.Random(seed)
        while state.to_act is not None:
            seat = state.to_act
            if state.dukal is not None:  # answer with the dearest cards, unlike basic
                k = state.dukal.cards.bit_count()
                hand = sorted(bit_list(state.hands[seat]), key=lambda c: -STRENGTH[c])
                move = Move(seat, "discard", cards=tuple(sorted(hand[:k])))
            else:
                move = basic_move(state, seat, rng)
            state = GAME.apply(state, move)
            if state.dukals and state.to_act is not None and state.dukal is None:
                view = GAME.observe(state, state.to_act)
                try:
                    GAME.sample(ganjifa_search.modelled(view), rng)
                except NoWorldFits:
                    move, _ = choose(GAME, view, "strong", rng, 50, playouts=20)
                    assert GAME.verify(state, move) is None
                    return
    raise AssertionError("no history contradicted the model")


def test_a_seat_whose_play_contradicts_basic_is_not_modelled():
    """Random players soon play a card that basic's reading of their earlier play says
    they could not hold: from then on nothing is inferred for them, where basic players
    (the test above) keep being read."""
    from rules.ai import random_move

    read = unread = 0
    for seed in range(10):
        state = GAME.deal(random.Random(seed))
        rng = random.Random(seed)
        for _ in range(60):
            state = GAME.apply(state, random_move(GAME, state, state.to_act, rng))
        seat = state.to_act
        view = GAME.observe(state, seat)
        lacks = ganjifa_search.modelled(view).public.voids
        for other in range(3):
            if other != seat:
                assert not state.hands[other] & lacks[other]
                if lacks[other] == state.voids[other]:
                    unread += 1
                else:
                    read += 1
    assert unread >= 16 and read <= 4, (read, unread)


def test_G6_G8_a_revoke_shown_by_a_later_dukal_is_caught():
    """Seat 1 played 1KUR on a Matsya lead, then led a Matsya Dukal. A Dukal is led only
    after its leader's first won trick (G8), so seat 1 held those Matsya cards at that
    earlier trick and had to follow suit (G6)."""
    tricks = [(["RRAM", "1RAM", "2RAM"], 0), (["1MAT", "1KUR", "2MAT"], 0),
              (["10VAR", "RVAR", "9VAR"], 1)]
    dukal_cards, answers = ["RMAT", "MMAT", "3MAT", "4MAT", "5MAT"], [
        [f"{p}PAR" for p in range(1, 6)], [f"{p}BAL" for p in range(1, 6)]]
    used = {c for cards, _ in tricks for c in cards} | {*dukal_cards, *answers[0], *answers[1]}
    rest = sorted((c for c in DECK.codes if c not in used), key=lambda c: "MAT" not in c)
    hands = [rest[:32], rest[32:64], rest[64:]]
    assert not any("MAT" in c for c in hands[1])

    with pytest.raises(InvalidState) as e:
        GAME.build(**after_a_dukal(hands, tricks, dukal_cards, answers))
    assert [p.field for p in e.value.problems] == ["tricks.1.cards.1.card"]


def after_a_dukal(hands, tricks, dukal_cards, answers) -> dict:
    """The fields of the state of the test above, from codes: seat 0 won the first two
    tricks, seat 1 the third and the Dukal it then led."""
    return dict(
        period="day", hands=[[IX[c] for c in h] for h in hands],
        captured=[[IX[c] for cards, w in tricks if w == 0 for c in cards],
                  [IX[c] for c in [*tricks[2][0], *dukal_cards, *answers[0], *answers[1]]],
                  []],
        leader=1, trick=[], dukal=None,
        tricks=[([(j, IX[c]) for j, c in enumerate(cards)], w) for cards, w in tricks],
        dukals=[{"seat": 1, "cards": [IX[c] for c in dukal_cards],
                 "discards": [(2, [IX[c] for c in answers[0]]),
                              (0, [IX[c] for c in answers[1]])]}])


def unexplained(world, seat: int, plays: range = range(3)) -> int:
    """The other seats' plays in the world's completed tricks (the forced opening lead
    aside) that basic would not have made had the world been the deal, each replayed from
    the hands of its time: the world's hands with every card played since put back.
    `plays`: which of a trick's plays to count (0 the lead, 1 and 2 the follows)."""
    tricks = world.tricks
    hands = list(world.hands)
    for i, card in enumerate(world.trick):
        hands[(world.leader + i) % 3] |= 1 << card
    then = []
    for leader, cards, _ in reversed(tricks):
        for j in range(3):
            hands[(leader + j) % 3] |= 1 << cards[j]
        then.append(tuple(hands))
    then.reverse()
    gone = 0
    misses = 0
    for t, (leader, cards, _) in enumerate(tricks):
        held = list(then[t])
        for j in range(3):
            s = (leader + j) % 3
            if t and s != seat and j in plays:
                before = world._replace(hands=tuple(held), captured=(gone, 0, 0), leader=leader,
                                        trick=tuple(cards[:j]), dukal=None, to_act=s)
                move = basic_move(before, s, None)
                misses += move.action != "play" or move.card != cards[j]
            held[s] &= ~(1 << cards[j])
        gone |= 1 << cards[0] | 1 << cards[1] | 1 << cards[2]
    return misses


def test_worlds_of_the_modelled_view_are_deals_basic_would_have_played():
    """The reading of each lead, follow and answer (`modelled`) leaves few of the history's
    plays unexplained in the worlds it gives the search, where the view alone leaves
    many: a lead is basic's cheapest boss or, with none, its cheapest card, and so on.
    Deals without a Dukal, whose timing the history does not record."""
    narrowed, plain, worlds = 0, 0, 0
    for seed in range(4):
        state = GAME.deal(random.Random(seed))
        rng = random.Random(seed)
        while state.to_act is not None and not state.dukals:
            seat = state.to_act
            if len(state.tricks or ()) % 9 == 8 and not state.trick:
                view = GAME.observe(state, seat)
                model = ganjifa_search.modelled(view)
                for _ in range(2):
                    narrowed += unexplained(GAME.sample(model, rng), seat)
                    plain += unexplained(GAME.sample(view, rng), seat)
                    worlds += 1
                assert unexplained(state, seat) == 0
            state = GAME.apply(state, basic_move(state, seat, None))
    assert worlds >= 10
    assert narrowed <= 0.3 * plain, (narrowed, plain, worlds)


def test_G6_G7_every_follow_of_the_history_is_basic_s_in_the_worlds_drawn():
    """A follower's card says what it lacked (`_Reading.follows`): the last to play that
    lost held no card of its options that beats the trick, since basic wins whenever it
    can as last to play; the second to play that lost held no safe winner, none cheaper
    than its card when it won, and its cheapest card when its winner was no boss. In
    the worlds the search draws, basic's play then explains every follow of the
    history but for a few worlds where `draw` found none that fits all. Deals without a
    Dukal, whose timing the history does not record."""
    follows = leads = worlds = 0
    for seed in range(6):
        state = GAME.deal(random.Random(seed))
        rng = random.Random(seed)
        while state.to_act is not None and not state.dukals:
            seat = state.to_act
            if len(state.tricks or ()) % 4 == 3 and not state.trick:
                view = GAME.observe(state, seat)
                model = ganjifa_search.modelled(view)
                for _ in range(3):
                    world = ganjifa_search.draw(GAME, model, rng)
                    follows += unexplained(world, seat, range(1, 3))
                    leads += unexplained(world, seat, range(1))
                    worlds += 1
            state = GAME.apply(state, basic_move(state, seat, None))
    assert worlds >= 60
    assert follows <= worlds // 30 and leads <= worlds // 10, (follows, leads, worlds)


def test_G7_a_lead_s_clauses_hold_in_the_deal_and_in_most_worlds_drawn():
    """A lead is basic's cheapest boss: a cheaper card the leader held was no boss, so when
    every card above it is unseen now, the other seat held one of them (a clause of
    `_lacks_by_basic`, which per-card lacks cannot say). The true deal breaks none, and
    `draw` keeps the world that breaks the fewest of its draws, far fewer than the
    modelled view's plain draws break."""
    clauses = drawn = plain = 0
    for seed in range(6):
        state = GAME.deal(random.Random(seed))
        rng = random.Random(seed)
        while state.to_act is not None:
            seat = state.to_act
            if len(state.tricks or ()) % 3 == 1 and state.dukal is None:
                view = GAME.observe(state, seat)
                model = ganjifa_search.modelled(view)
                _, found, _ = ganjifa_ai.lacks_by_basic(view.public, seat)
                clauses += len(found)
                assert ganjifa_ai.misfits(state, [], found) == 0, seed
                for _ in range(10):
                    drawn += ganjifa_ai.misfits(ganjifa_search.draw(GAME, model, rng), [], found)
                    plain += ganjifa_ai.misfits(GAME.sample(model, rng), [], found)
            state = GAME.apply(state, basic_move(state, seat, None))
    assert clauses >= 50 and plain >= 50 and drawn <= plain // 4, (clauses, drawn, plain)


def test_G8_the_worlds_drawn_give_no_dukal_to_a_seat_that_has_led_a_card():
    """Basic leads a Dukal whenever it can (G8), so a seat that has led a single card since
    the opening held none then, nor holds one now: the worlds the search draws (`draw`)
    give it none, where the view's plain draws sometimes do."""
    def phantoms(world, since) -> int:
        return sum(ganjifa_ai.holds_dukal(world.hands[s] | cards) for s, cards in since)

    drawn = plain = 0
    for seed in range(6):
        state = GAME.deal(random.Random(seed))
        rng = random.Random(seed)
        while state.to_act is not None:
            seat = state.to_act
            if len(state.tricks or ()) % 5 == 2 and not state.trick and state.dukal is None:
                view = GAME.observe(state, seat)
                since = ganjifa_ai.led_since(view.public, seat)
                assert not phantoms(state, since)  # nor does the deal itself
                for _ in range(25):
                    drawn += phantoms(ganjifa_search.draw(GAME, view, rng), since)
                    plain += phantoms(GAME.sample(view, rng), since)
            state = GAME.apply(state, basic_move(state, seat, None))
    assert plain >= 20 and drawn <= plain // 5, (drawn, plain)


def _highest_card(state, seat: int, rng: random.Random) -> Move:
    """A seat that plays no basic: the outside reference `highest` (its highest card)."""
    return highest_ganjifa(GAME, GAME.observe(state, seat), rng)


def _any_card(state, seat: int, rng: random.Random) -> Move:
    """A seat that plays no basic: a legal move at random."""
    move = rng.choice(GAME.legal_moves(state))
    return move if isinstance(move, Move) else move.sample(rng)


def test_a_search_draws_the_same_worlds_whichever_view_was_read_meanwhile():
    """`draw` and `sample` keep the last view's reading (its clauses, the seats that led,
    the seats shown unlike basic); another search's view read in between (another
    thread's) must not change the worlds a seed draws: the reading is made again. One
    seat plays at random, so that some views flag it."""
    compared = flagged = 0
    for seed in range(9):
        state = GAME.deal(random.Random(seed))
        rng = random.Random(seed)
        while state.to_act is not None:
            seat = state.to_act
            if len(state.tricks or ()) % 6 == 5 and state.dukal is None:
                model = ganjifa_search.modelled(GAME.observe(state, seat))
                flagged += any(ganjifa_search._LAST_READING[0].unlike)

                def worlds():
                    return [ganjifa_search.sample(GAME, model, random.Random(seed), 4),  # noqa: B023
                            ganjifa_search.draw(GAME, model, random.Random(seed))]  # noqa: B023

                try:
                    alone = worlds()
                except NoWorldFits:  # the search then draws from the view itself
                    alone = None
                if alone is not None:
                    ganjifa_search.modelled(GAME.observe(state, (seat + 1) % 3))
                    assert alone == worlds(), seed
                    compared += bool(ganjifa_search._LAST_READING[0].clauses)
            move = _any_card(state, seat, rng) if seat == seed % 3 else \
                basic_move(state, seat, None)
            state = GAME.apply(state, move)
    assert compared >= 10 and flagged >= 5, (compared, flagged)


@pytest.mark.parametrize("other_play", [_highest_card, _any_card], ids=["highest", "random"])
def test_G7_G8_a_seat_shown_unlike_basic_is_not_read_as_basic(other_play):
    """Once a seat's play contradicts basic's reading (`_lacks_by_basic`'s third item), no
    reading takes it for basic: the basic seats are never flagged and never given a lack
    of a card they hold (not even one read from the other seat's leads); the true deal
    explains the trick on the table with the flagged seat's card left unread
    (`explains`), where reading it as basic's rejects the true deal; and no phantom Dukal
    is looked for in its hand (`_led_since`)."""
    flagged = rejected = 0
    for seed in range(16):
        state = GAME.deal(random.Random(seed))
        rng = random.Random(seed)
        other = seed % 3  # the seat that plays otherwise
        while (seat := state.to_act) is not None:
            if state.tricks and seat != other:
                public = GAME.observe(state, seat).public
                lacks, _, unlike = ganjifa_ai.lacks_by_basic(public, seat)
                for s in range(3):
                    if s not in (seat, other):
                        assert not unlike[s] and not lacks[s] & state.hands[s], seed
                if unlike[other]:
                    flagged += 1
                    assert other not in dict(ganjifa_ai.led_since(public, seat, unlike))
                    if state.trick and state.dukal is None:
                        assert ganjifa_ai.explains(state, seat, unlike), seed
                        rejected += not ganjifa_ai.explains(state, seat)
            move = other_play(state, seat, rng) if seat == other else \
                basic_move(state, seat, None)
            state = GAME.apply(state, move)
    assert flagged >= 100 and rejected >= 10, (flagged, rejected)


def test_G6_no_world_gives_a_hand_cards_its_voids_rule_out():
    """When what a view says a seat lacks leaves it no card to hold, no deal fits: the
    sampler says so rather than deal it cards it lacks (the search then draws from the
    view itself), whether another seat may take every card or none separates them."""
    state = GAME.deal(random.Random(4))
    for _ in range(4):
        state = GAME.apply(state, basic_move(state, state.to_act, None))
    seat = state.to_act
    view = GAME.observe(state, seat)
    first, second = (s for s in range(3) if s != seat)
    for lacked in ((DECK.full, 0), (DECK.full, DECK.full)):
        voids = [0, 0, 0]
        voids[first], voids[second] = lacked
        blind = view._replace(public=view.public._replace(voids=tuple(voids)))
        with pytest.raises(NoWorldFits):
            GAME.sample(blind, random.Random(0))


def test_G6_G7_a_seat_playing_as_the_high_player_is_read_as_one():
    """Two seats that play as the high player (highest card to take, else lowest; lead
    the highest) and one basic seat: each high seat is soon modelled as one, and then the
    cards its history says it lacks are never in its hand."""
    high_seen = narrowed = 0
    for seed in range(10):
        state = GAME.deal(random.Random(seed))
        basic_seat = seed % 3
        while state.to_act is not None:
            seat = state.to_act
            if len(state.tricks or ()) > 6 and seat == basic_seat:
                view = GAME.observe(state, seat)
                lacks = ganjifa_search.modelled(view).public.voids
                models = ganjifa_search.reading(
                    ganjifa_search.modelled(view).public, seat).models
                assert models[seat] == 0
                high_seen += sum(models)
                for other in range(3):
                    if models[other]:
                        assert not state.hands[other] & lacks[other], (seed, other)
                        narrowed += bool(lacks[other] & ~state.voids[other])
            move = basic_move(state, seat, None) if seat == basic_seat else high_move(state, seat)
            state = GAME.apply(state, move)
    assert high_seen > 200 and narrowed > 200


def test_G6_G7_a_basic_seat_is_not_read_as_the_high_player():
    for seed in range(6):
        state = GAME.deal(random.Random(seed))
        while state.to_act is not None:
            seat = state.to_act
            if len(state.tricks or ()) > 3:
                public = ganjifa_search.modelled(GAME.observe(state, seat)).public
                assert ganjifa_search.reading(public, seat).models == (0, 0, 0)
            state = GAME.apply(state, basic_move(state, seat, None))
