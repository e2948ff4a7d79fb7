"""The `cardavia` command line (clients/python) against a real gunicorn: its exit statuses
(0 success, 1 an illegal move, 2 bad usage), each subcommand, and a whole Durak deal played
through `cardavia play` in a pseudo-terminal."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from hypothesis import given
from hypothesis import strategies as st

from render.text import width
from rules.texts import catalogue
from tests.support.records import record

pytestmark = pytest.mark.http
CARDAVIA = str(Path(sys.executable).with_name("cardavia"))
SESSIONS = Path(__file__).resolve().parent.parent / ".pytest_cache" / "terminal"  # to look at


def run(server: str, *args: str, stdin: str | None = None, url_flag: bool = False):
    """`cardavia ARGS` with the server from CARDAVIA_URL (or from --url)."""
    env = {**os.environ, "CARDAVIA_URL": "http://127.0.0.1:9" if url_flag else server}
    argv = [CARDAVIA, *(("--url", server) if url_flag else ()), *args]
    return subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env,
                          timeout=60)


@pytest.fixture(scope="module")
def dealt(server, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "dealt.json"
    done = run(server, "deal", "durak", "--seed", "1")
    assert done.returncode == 0, done.stderr
    path.write_text(done.stdout)
    return path


def test_deal_moves_move_render(server, dealt):
    answer = json.loads(dealt.read_text())
    assert set(answer) == {"state", "deck"}
    again = run(server, "deal", "durak", "--deck", " ".join(answer["deck"]), url_flag=True)
    assert json.loads(again.stdout) == answer
    moves = run(server, "moves", str(dealt))
    assert moves.returncode == 0 and moves.stdout.startswith("Seat 1 to act:")
    first = moves.stdout.splitlines()[1].split(": ", 1)[1]  # "  1. seat 1: attack 6S"
    played = run(server, "move", str(dealt), *first.split())
    assert played.returncode == 0, played.stderr
    after = json.loads(played.stdout)
    assert after["legal"] and after["state"]["table"][0]["attack"] == first.split()[1]
    piped = run(server, "moves", "-", "--json", stdin=played.stdout)
    assert json.loads(piped.stdout)["to_act"] == 0
    text = run(server, "render", str(dealt), "--seat", "1")
    assert text.returncode == 0 and all(c in text.stdout for c in answer["state"]["hands"][1])
    svg = run(server, "render", str(dealt), "--format", "svg")
    assert svg.returncode == 0 and svg.stdout.startswith("<svg")


def test_an_illegal_move_exits_1_and_bad_usage_2(server, dealt):
    hand0 = json.loads(dealt.read_text())["state"]["hands"][0]
    illegal = run(server, "move", str(dealt), "--seat", "0", "attack", hand0[0])
    assert illegal.returncode == 1 and "not_your_turn (D6)" in illegal.stderr
    for args in (("frobnicate",), ("moves",), ("moves", "/no/such/file"),
                 ("move", str(dealt), "fly"), ("move", str(dealt), "attack"),
                 ("deal", "chess"), ("score", "--contract", "garde")):
        done = run(server, *args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert done.stderr
    refused = run(server, "deal", "durak", "--deck", "6S 7S")
    assert refused.returncode == 2 and "deck" in refused.stderr
    unreachable = run("http://127.0.0.1:9", "moves", str(dealt))
    assert unreachable.returncode == 2 and "cannot reach" in unreachable.stderr


def test_replay_prints_the_settlement_or_the_first_illegal_move(server, tmp_path):
    rec = record("tarot", {"seed": 1})
    good = tmp_path / "good.json"
    good.write_text(json.dumps(rec))
    done = run(server, "replay", str(good))
    assert done.returncode == 0, done.stderr
    assert f"{len(rec['moves'])} legal moves; the deal is over." in done.stdout
    assert "Contract prise by seat" in done.stdout
    rec["moves"][40]["seat"] = (rec["moves"][40]["seat"] + 1) % 4
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec))
    done = run(server, "replay", str(bad))
    assert done.returncode == 1
    assert "move 40 is illegal, after 40 legal move(s)" in done.stdout
    assert "not_your_turn (T9)" in done.stdout or "not_your_turn" in done.stdout
    bad.write_text(json.dumps({"moves": []}))
    assert run(server, "replay", str(bad)).returncode == 2


def test_score_prints_the_tarot_score_sheet(server):
    done = run(server, "score", "--contract", "garde", "--taker", "1", "--bouts", "2",
               "--points", "45", "--petit-au-bout", "taker", "--poignee", "taker:simple")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["Contract", "Garde", "·", "Seat", "1", "(x2)"]
    scores = [line.split() for line in lines if line.startswith("Seat ")]
    raw = json.loads(run(server, "score", "--contract", "garde", "--taker", "1", "--bouts",
                         "2", "--points", "45", "--petit-au-bout", "taker", "--poignee",
                         "taker:simple", "--json").stdout)
    assert [int(s[2]) for s in scores] == raw["scores"]
    assert scores[1][3:] == ["taker"]
    assert run(server, "score", "--contract", "garde", "--bouts", "2", "--points", "45",
               "--poignee", "nobody").returncode == 2


def test_T8_a_failed_takers_poignee_is_said_as_the_takers_going_to_the_defence(server):
    """Who showed a poignée is one thing, the camp its bonus goes to another (T8: to the
    camp that wins the deal)."""
    done = run(server, "score", "--contract", "garde", "--taker", "1", "--bouts", "2",
               "--points", "30", "--poignee", "taker:simple")
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("Poignée"))
    assert line.split() == ["Poignée", "simple", "of", "taker", "+20", "to", "the", "defence"]


def test_score_of_a_session_file_prints_every_deal_and_the_totals(server, tmp_path):
    """An evening's sheet as the score keeper page shows it: deals numbered from 1, each
    with its result and bonuses (who showed a poignée), the totals, the next dealer, each
    player's own poignées; in `--lang`'s words; a deal refused said by that number, in
    plain words, never a schema's field path."""
    session = {"players": ["Anne", "Bruno", "Chloé", "Dmytro", "Eun"], "dealer": 4, "deals": [
        {"contract": "garde", "taker": 1, "partner": 3, "bouts": 2, "points": 45},
        {"annulled": "petit_sec"},
        {"contract": "prise", "taker": 4, "partner": None, "bouts": 1, "points": 40,
         "petit_au_bout": "defense",
         "poignees": [{"camp": "defense", "level": "simple", "seat": 0}]}]}
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(session))
    done = run(server, "score", str(path))
    assert done.returncode == 0, done.stderr
    raw = json.loads(run(server, "score", str(path), "--json").stdout)
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["#", "Dealer", "Deal", "Bouts", "Points", *session["players"]]
    totals = next(line for line in lines if line.startswith("Total")).split()[1:]
    assert [int(t) for t in totals] == raw["totals"] == raw["deals"][-1]["totals"]
    assert [line.split()[0] for line in lines[1:4]] == ["1", "2", "3"]  # as people count
    assert "Garde by Bruno: made · with Dmytro" in lines[1]
    assert "Annulled: petit sec" in lines[2]
    assert "Prise by Eun: failed · Petit au bout: Defence · Poignée simple: Anne" in lines[3]
    assert f"Next dealer: {session['players'][raw['next_dealer']]}" in lines
    # A player's own poignées: Anne showed one; the defence's other players did not.
    assert any(line.startswith("Anne: Taken 0 · Made 0 · Failed 0") and "Own poignées 1" in line
               for line in lines)
    assert any(line.startswith("Eun: Taken 1 · Made 0 · Failed 1") and "Own poignées 0" in line
               for line in lines)
    french = run(server, "--lang", "fr", "score", str(path)).stdout.splitlines()
    words = catalogue("fr", "table")
    assert french[0].split()[:2] == [words["score.number"], words["score.dealer"]]
    assert [line.split()[0] for line in french[1:4]] == ["1", "2", "3"]
    assert words["score.next_dealer"].format(who="Chloé") in french
    piped = run(server, "score", "-", "--csv", stdin=json.dumps(session))
    assert piped.returncode == 0 and piped.stdout.startswith("deal,dealer,taker,partner,")
    assert len(piped.stdout.splitlines()) == 1 + len(session["deals"])
    session["deals"][2]["points"] = 3  # one bout and 3 points: no deal gives that
    path.write_text(json.dumps(session))
    refused = run(server, "score", str(path))
    assert refused.returncode == 2 and f"{path}: Deal 3: No deal gives" in refused.stderr
    for jargon in ("deals.2", "schema", "field"):
        assert jargon not in refused.stderr, refused.stderr
    russian = run(server, "--lang", "ru", "score", str(path))
    assert russian.returncode == 2 and "Раздача 3: " in russian.stderr
    path.write_text(json.dumps({"deals": []}))
    assert run(server, "score", str(path)).returncode == 2


def test_play_a_whole_durak_deal_in_a_terminal(server, tmp_path):
    """The player at seat 0 answers every prompt, by number, by notation, by the card alone,
    after a move that is not listed, a number out of range and an action the game has not
    (which the service refuses as a body, 422); the record written at the
    end replays to the same end."""
    record_path = tmp_path / "played.json"
    child = pexpect.spawn(CARDAVIA, ["play", "durak", "--seed", "5", "--level", "basic",
                                     "--record", str(record_path)],
                          env={**os.environ, "CARDAVIA_URL": server}, encoding="utf-8",
                          timeout=30, dimensions=(50, 80))
    transcript: list[str] = []
    child.logfile_read = _Collect(transcript)
    prompts = 0
    try:
        while child.expect(["Your move> ", pexpect.EOF]) == 0:
            listed = [line.split(". ", 1)[1] for line in child.before.splitlines()
                      if line.startswith("  ") and ". " in line and line.strip()[0].isdigit()]
            assert listed, child.before
            if prompts == 0:
                child.sendline("attack")  # a move without its card: asked again
                child.expect("Your move> ")
                child.sendline("99")  # not in the list: asked again
                child.expect("Your move> ")
                child.sendline("xyz")  # an action the game has not: told why, asked again
                child.expect("Your move> ")
                held = {m.split()[-1] for m in listed}
                child.sendline("attack " + next(c for c in ("6S", "7S", "8S", "9S", "10S",
                                                            "JS", "QS") if c not in held))
                # Refused by the service: told why and asked again, the table not redrawn.
                child.expect("Your move> ")
                assert "Illegal: " in child.before and "Seat 0 ·" not in child.before
                child.sendline(listed[0])  # the notation
            elif prompts == 1:
                child.sendline(listed[-1].split()[-1])  # the card (or action) alone
            else:
                child.sendline("1")
            prompts += 1
    finally:
        child.close()
    text = "".join(transcript)
    assert child.exitstatus == 0, text[-2000:]
    assert "takes one card" in text and "choose a number from 1 to" in text
    assert "'xyz' is not a durak action: they are attack, defend, take, pass, transfer." in text
    assert "Illegal: " in text
    assert "The deal is over." in text and "the whole table, face up" in text
    # Every line fits an 80-column terminal, but the one naming the record's (long) path.
    assert [line for line in text.splitlines()
            if len(line) > 80 and str(record_path) not in line] == []
    rec = json.loads(record_path.read_text())
    # The terminal asks for the cards seen by everyone, as the table page does.
    assert rec["game"] == "durak" and rec["deal"] == {"seed": 5, "known": True}
    assert sum(m["seat"] == 0 for m in rec["moves"]) == prompts
    replayed = run(server, "replay", str(record_path))
    assert replayed.returncode == 0 and "the deal is over" in replayed.stdout


def test_D21_play_durak_for_four_with_passing_shows_every_seat_and_passes_on(server, tmp_path):
    """`play durak --players 4 --transfer`: the terminal table shows the four seats, the
    attack passed on is among the moves and is played; the record, stopped, replays."""
    record_path = tmp_path / "four.json"
    child = pexpect.spawn(CARDAVIA, ["play", "durak", "--players", "4", "--transfer",
                                     "--seed", "12", "--level", "basic",
                                     "--record", str(record_path)],
                          env={**os.environ, "CARDAVIA_URL": server}, encoding="utf-8",
                          timeout=30, dimensions=(50, 80))
    try:
        child.expect("Your move> ")  # seat 3 has led a Six against seat 0
        table = child.before
        assert [f"Seat {s} ·" in table for s in range(4)] == [True] * 4
        passes = [line.split(". ", 1)[1] for line in table.splitlines()
                  if ". transfer " in line]
        assert passes, table
        child.sendline(passes[0])
        child.expect("Your move> ")
        assert f"Seat 0: {passes[0]}" in child.before
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    rec = json.loads(record_path.read_text())
    assert rec["deal"] == {"seed": 12, "players": 4, "transfer": True, "known": True}
    replayed = run(server, "replay", str(record_path))
    assert replayed.returncode == 0 and "the deal is not over" in replayed.stdout


def test_T5_play_tarot_never_shows_the_player_another_seat_s_ecart(server, tmp_path):
    """In deal 10 the player passes and seat 1 (the AI) takes a prise: its écart is laid
    face down (T5), so the terminal says that it was laid, never which cards, as the
    player's view writes them "?"."""
    record_path = tmp_path / "prise.json"
    done = subprocess.run([CARDAVIA, "play", "tarot", "--seed", "10", "--level", "basic",
                           "--record", str(record_path)], input="bid pass\nq\n",
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "CARDAVIA_URL": server})
    assert done.returncode == 0, done.stderr
    laid = next(m for m in json.loads(record_path.read_text())["moves"]
                if m["action"] == "discard")
    assert laid["seat"] == 1
    said = [line for line in done.stdout.splitlines() if line.startswith("Seat 1: discard")]
    assert said == ["Seat 1: discard 6 cards, face down"], done.stdout
    # T5: the chien was shown, and discarded trumps are; the rest came from seat 1's hand.
    chien = next(line for line in done.stdout.splitlines() if "chien shown" in line)
    hidden = {c for c in laid["cards"] if not c.startswith("T")} - set(chien.split())
    assert hidden and not hidden & set(done.stdout.split())


def test_D16_D19_deal_durak_with_its_count_deck_and_throw_in(server):
    done = run(server, "deal", "durak", "--seed", "2", "--players", "3", "--cards", "52",
               "--throw-in", "neighbours", "--first-bout", "5")
    assert done.returncode == 0, done.stderr
    dealt = json.loads(done.stdout)
    assert len(dealt["state"]["hands"]) == 3 and len(dealt["deck"]) == 52
    assert dealt["state"]["throw_in"] == "neighbours" and dealt["state"]["first_bout"] == 5
    refused = run(server, "deal", "durak", "--players", "6", "--cards", "24")  # D16
    assert refused.returncode == 2, refused.stderr
    assert "--players: 6 players are too many for 24 cards" in refused.stderr


@pytest.mark.parametrize(("args", "said"), [
    (("ganjifa", "--players", "4"), "--players: Ganjifa is played by exactly 3 players (got 4)"),
    (("tarot", "--players", "7"), "--players: Tarot takes 3 to 5 players (got 7)"),
    (("durak", "--period", "day"), "--period applies to Ganjifa only"),
    (("tarot", "--transfer"), "--transfer applies to Durak only"),
])
def test_a_deal_the_game_has_not_is_said_in_the_flags_words(server, args, said):
    done = run(server, "deal", *args)
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert "Unknown field" not in done.stderr


def test_G4_deal_ganjifa_for_its_three_players(server):
    """Ganjifa is played by three (G4): `--players 3` says so and deals, as Durak's and
    Tarot's counts do."""
    done = run(server, "deal", "ganjifa", "--players", "3", "--seed", "4")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(run(server, "deal", "ganjifa", "--seed",
                                                     "4").stdout)


def test_play_stopped_at_once_writes_no_record_and_never_writes_over_one(server, tmp_path):
    """`q` before any move: nothing to record, so no file. A record that exists is kept: a
    --record naming it is refused before the deal, and the default name, when taken, is
    numbered."""
    def play(*args: str, stdin: str) -> subprocess.CompletedProcess:
        return subprocess.run([CARDAVIA, "play", "durak", "--seed", "3", "--level", "basic",
                               *args], input=stdin,
                              capture_output=True, text=True, cwd=tmp_path, timeout=60,
                              env={**os.environ, "CARDAVIA_URL": server})

    stopped = play(stdin="q\n")  # seat 0 leads in deal 3
    assert stopped.returncode == 0, stopped.stderr
    assert "no game record written" in stopped.stdout and list(tmp_path.iterdir()) == []
    kept = tmp_path / "durak-record.json"
    kept.write_text("an earlier deal\n")
    refused = play("--record", str(kept), stdin="1\nq\n")
    assert refused.returncode == 2 and f"--record: {kept} exists" in refused.stderr
    numbered = play(stdin="1\nq\n")
    assert numbered.returncode == 0, numbered.stderr
    assert "Game record written to durak-record-2.json" in numbered.stdout
    assert kept.read_text() == "an earlier deal\n"
    assert json.loads((tmp_path / "durak-record-2.json").read_text())["moves"]


def test_version(server):
    done = run(server, "--version")
    assert done.returncode == 0
    assert done.stdout == f"cardavia {importlib.metadata.version('cardavia-client')}\n"

class _Collect:
    """A file-like sink for pexpect's log: the terminal's output, kept for the assertions."""

    def __init__(self, into: list[str]):
        self.into = into

    def write(self, text: str) -> None:
        self.into.append(text)

    def flush(self) -> None:
        pass


def test_the_help_examples_run_as_printed(server, tmp_path):
    """`cardavia --help`'s examples, pasted in order into a shell (the interactive `play`,
    the replay of its record, a long `match` and a saved session aside): each exits 0, and
    its move is legal on its deal."""
    shown = run(server, "--help").stdout
    examples = [line.strip() for line in shown.splitlines()
                if line.startswith("    cardavia ")]
    assert examples[0] == "cardavia deal durak --seed 1 > dealt.json"
    env = {**os.environ, "CARDAVIA_URL": server,
           "PATH": f"{Path(CARDAVIA).parent}{os.pathsep}{os.environ['PATH']}"}
    ran = 0
    for line in examples:
        if line.split()[1] in ("play", "replay", "match") or line.endswith("evening.json"):
            continue  # interactive, long, or reading a file the table page saves
        done = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and not done.stderr, (line, done.stderr)
        if line.split()[1] == "move":
            assert json.loads(done.stdout)["legal"] is True
        ran += 1
    assert ran >= 5


@pytest.mark.parametrize(("typed", "suggested"), [
    ("attak 6S", "attack"), ("defnd 7S", "defend"), ("tak", "take"), ("fly", None)])
def test_a_mistyped_action_names_the_actions_and_the_nearest(server, dealt, typed,
                                                              suggested):
    done = run(server, "move", str(dealt), *typed.split())
    assert done.returncode == 2
    assert "they are attack, defend, take, pass, transfer" in done.stderr
    if suggested:
        assert done.stderr.rstrip().endswith(f"did you mean '{suggested}'?")
    else:
        assert "did you mean" not in done.stderr
    assert "takes nothing after it" not in done.stderr


def test_score_in_persian_and_five_players_without_a_partner(server):
    sheet = ("score", "--players", "5", "--contract", "prise", "--bouts", "1",
             "--points", "52")
    fa = run(server, "--lang", "fa", *sheet, "--partner", "none")
    assert fa.returncode == 0, fa.stderr
    words = catalogue("fa", "table")
    lines = fa.stdout.splitlines()
    assert lines[0].startswith(words["end.tarot.contract"])
    assert words["end.tarot.per_defender"] in fa.stdout and "Contract" not in fa.stdout
    assert sum(line.startswith(words["seat"].format(n="")) for line in lines) == 5
    missing = run(server, *sheet)
    assert missing.returncode == 2 and "--partner" in missing.stderr
    assert "null" not in missing.stderr and "none" in missing.stderr


def test_score_in_french_in_the_tarot_players_own_terms(server):
    done = run(server, "--lang", "fr", "score", "--contract", "garde_sans", "--bouts", "2",
               "--points", "40.5", "--petit-au-bout", "defense")
    assert done.returncode == 0, done.stderr
    words = catalogue("fr", "table")
    first = done.stdout.splitlines()[0]
    assert first.startswith("Contrat ") and words["contract.garde_sans"] in first
    assert "chuté" in done.stdout and "Petit au bout" in done.stdout
    assert "Chaque défenseur marque" in done.stdout and "Contract" not in done.stdout


def test_render_in_russian_with_the_cyrillic_corners(server, dealt):
    """`render --indices russian` writes each card as its corner reads (Д♠, Т♦), the
    labels in Russian; without it, the codes a player types."""
    hand = json.loads(dealt.read_text())["state"]["hands"][1]
    done = run(server, "--lang", "ru", "render", str(dealt), "--seat", "1",
               "--indices", "russian")
    assert done.returncode == 0, done.stderr
    assert "Игрок 1" in done.stdout and "Козыри: масть" in done.stdout
    marks = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    letters = {"J": "В", "Q": "Д", "K": "К", "A": "Т"}
    for code in hand:
        assert letters.get(code[:-1], code[:-1]) + marks[code[-1]] in done.stdout, code
    refused = run(server, "render", str(dealt), "--indices", "german")
    assert refused.returncode == 2 and "--indices" in refused.stderr


def test_play_durak_in_russian_typing_cards_as_their_corners_read(server, tmp_path):
    """`--lang ru play durak --indices russian`: the table and the list of moves write the
    cards as a Russian pack prints them, and a card typed so (Д♠) is played."""
    child = pexpect.spawn(CARDAVIA, ["--lang", "ru", "play", "durak", "--seed", "5",
                                     "--level", "basic", "--indices", "russian",
                                     "--record", str(tmp_path / "ru.json")],
                          env={**os.environ, "CARDAVIA_URL": server}, encoding="utf-8",
                          timeout=30, dimensions=(50, 80))
    transcript: list[str] = []
    child.logfile_read = _Collect(transcript)
    try:
        child.expect("Your move> ")
        listed = [line.split(". ", 1)[1] for line in child.before.splitlines()
                  if line.startswith("  ") and ". " in line and line.strip()[0].isdigit()]
        carded = [m for m in listed if len(m.split()) == 2]
        assert carded and all(m.split()[1][-1] in "♠♥♦♣" for m in carded), listed
        assert "Игрок 0" in child.before and "Колода" in child.before
        child.sendline(carded[-1].split()[1].lower())  # "д♠": its corner, in any case
        child.expect("Your move> ")
        assert f"Seat 0: {carded[-1]}" in child.before
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    SESSIONS.mkdir(parents=True, exist_ok=True)
    (SESSIONS / "play-durak-ru.txt").write_text("".join(transcript))
    rec = json.loads((tmp_path / "ru.json").read_text())
    assert all(m["card"][-1] in "SHDC" for m in rec["moves"] if "card" in m)  # codes kept


def test_output_cut_short_by_a_pipe_is_no_traceback(server, dealt):
    """`cardavia move … | head -c 300`: the reader gone, the command stops quietly."""
    child = subprocess.Popen([CARDAVIA, "move", str(dealt), "attack", "6S"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env={**os.environ, "CARDAVIA_URL": server})
    child.stdout.close()  # nobody reads: the first write gets EPIPE
    _, err = child.communicate(timeout=60)
    assert err == b"" and child.returncode == 128 + 13
    piped = subprocess.run(["bash", "-c", f"'{CARDAVIA}' move '{dealt}' attack 6S | head -c 300"],
                           capture_output=True, text=True, timeout=60,
                           env={**os.environ, "CARDAVIA_URL": server})
    assert len(piped.stdout) == 300 and piped.stderr == ""


def test_the_actions_named_are_each_games_own(server):
    """The command line names each game's actions as the service lists them (GameInfo's
    `actions`): the rules' list."""
    from cardavia_client import Client
    from cardavia_client.cli import games

    from schemas.registry import GAMES
    with Client(server) as client:
        told = games.read(client)
    assert {game: tuple(s.game.actions) for game, s in GAMES.items()} == \
        {game: tuple(g.actions) for game, g in told.items()}


@pytest.mark.parametrize(("args", "suggested"), [
    (("plya", "durak"), "play"), (("deal", "druak"), "durak"), (("deal", "xyzzy"), None)])
def test_a_mistyped_subcommand_or_game_suggests_the_nearest(server, args, suggested):
    done = run(server, *args)
    assert done.returncode == 2 and "invalid choice" in done.stderr
    if suggested:
        assert done.stderr.rstrip().endswith(f"did you mean '{suggested}'?")
    else:
        assert "did you mean" not in done.stderr


@given(st.text())
def test_the_score_tables_columns_are_counted_as_the_renderer_counts_them(text):
    """The client, a distribution of its own, keeps its own count of a terminal's columns
    (combining marks none, wide characters two); it is the service's render/text.py's."""
    from cardavia_client.cli.score import width as client_width

    assert client_width(text) == width(text)
