"""`cardavia match` (clients/python/cardavia_client/match.py) against a real gunicorn, with
the README's example bot running as a real process in one seat, and a bot that answers an
illegal move; the figures on known deals, without a server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer
from pathlib import Path

import pytest
import requests
from cardavia_client import Client, match
from cardavia_client.client import ProblemError, seconds
from cardavia_client.types import AiMove

from schemas.registry import GAMES as SCHEMAS
from tests.support.servers import ROOT, free_port

CARDAVIA = str(Path(sys.executable).with_name("cardavia"))
BOT = ROOT / "clients" / "python" / "examples" / "bot.py"


def cardavia(server: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([CARDAVIA, "--url", server, *args], capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def example_bot():
    """clients/python/examples/bot.py as README.md runs it: its URL."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(BOT), str(port)], stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                requests.get(url, timeout=1)  # any answer: the bot is listening
                break
            except requests.ConnectionError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the example bot did not start") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.http
@pytest.mark.parametrize("game, seats", [("durak", "basic,BOT"),
                                         ("tarot", "random,BOT,basic"),
                                         ("ganjifa", "BOT,basic,random")])
def test_a_match_with_the_example_bot(server, example_bot, game, seats):
    seats = seats.replace("BOT", example_bot)
    done = cardavia(server, "match", game, "--seats", seats, "--deals", "3", "--budget",
                    "20", "--seed", "5", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    n = len(seats.split(","))
    assert [r["seed"] for r in out["results"]] == [5, 6, 7]
    for i, r in enumerate(out["results"]):
        # Player j sits at seat (j + i) mod n: every player moves round the table.
        assert r["players_at"] == [(s - i) % n for s in range(n)]
        assert r["forfeit"] is None and len(r["scores"]) == n and r["moves"] > 0
    assert [p["player"] for p in out["players"]] == seats.split(",")
    for j, p in enumerate(out["players"]):
        mine = [r["scores"][r["players_at"].index(j)] for r in out["results"]]
        assert p["deals"] == 3 and p["mean_score"] == pytest.approx(sum(mine) / 3)
        assert p["score_ci"][0] <= p["mean_score"] <= p["score_ci"][1]
    if game == "durak":
        assert sum(p["wins"] + p["losses"] + p["draws"] for p in out["players"]) == 6
    if game == "ganjifa":  # the shares of one deal's win add up to 1
        assert sum(p["win_share"] for p in out["players"]) == pytest.approx(1)
    # Each deal's game record replays, as it is, to the deal's scores.
    with Client(server) as client:
        for r in out["results"]:
            assert r["record"]["deal"]["seed"] == r["seed"]
            assert len(r["record"]["moves"]) == r["moves"]
            replayed = client.replay_record(r["record"])
            assert replayed.legal and replayed.settlement is not None
            assert replayed.settlement["scores"] == r["scores"]
    text = cardavia(server, "match", game, "--seats", seats, "--deals", "3", "--budget",
                    "20", "--seed", "5", "--quiet")
    assert text.returncode == 0 and text.stderr == ""
    assert "95% interval" in text.stdout and example_bot in text.stdout


class Cheat(BaseHTTPRequestHandler):
    """A bot that attacks with a card it does not hold (or, defending, takes: legal)."""

    told: list[dict] = []

    def do_POST(self):
        asked = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if "result" in asked:
            self.told.append(asked)
            self.send_response(204)
            self.end_headers()
            return
        hand = asked["view"]["hands"][asked["seat"]]
        absent = next(c for c in ("6S", "7S", "8S", "9S", "10S", "JS", "QS")
                      if c not in hand)
        body = json.dumps({"action": "attack", "card": absent}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.mark.http
def test_an_illegal_bot_move_forfeits_its_deal_and_exits_1(server):
    httpd = HTTPServer(("127.0.0.1", 0), Cheat)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{httpd.server_port}/"
        done = cardavia(server, "match", "durak", "--seats", f"basic,{url}", "--deals", "2",
                        "--budget", "20", "--json")
    finally:
        httpd.shutdown()
    assert done.returncode == 1, done.stderr
    out = json.loads(done.stdout)
    assert all(r["forfeit"] == 1 and "illegal move" in r["reason"] for r in out["results"])
    assert out["players"][1]["forfeits"] == 2 and out["players"][1]["deals"] == 0
    with Client(server) as client:
        for r in out["results"]:
            # The record ends with the illegal move: replay finds it where the deal ended.
            replayed = client.replay_record(r["record"])
            assert not replayed.legal and replayed.played == r["moves"]
            assert replayed.at == len(r["record"]["moves"]) - 1 == r["moves"]
            assert replayed.reason is not None and replayed.reason.message in r["reason"]
    # The cheat was told of each deal it forfeited, and why, at its seat of that deal.
    assert [(t["deal"], t["seat"], t["result"]["settlement"]) for t in Cheat.told] == [
        (r["deal_id"], r["players_at"].index(1), None) for r in out["results"]]
    assert all(t["result"]["forfeit"]["seat"] == t["seat"] and "illegal move" in
               t["result"]["forfeit"]["reason"] and t["view"]["game"] == "durak"
               for t in Cheat.told)


@pytest.mark.http
def test_quiet_drops_the_deals_but_not_why_a_bot_forfeited(server):
    """A URL that is no bot (the service's /healthz refuses a POST): with --quiet, the
    first forfeit of each player is still said, once, and the figures count them all."""
    not_a_bot = f"{server}/healthz"
    done = cardavia(server, "match", "durak", "--seats", f"basic,{not_a_bot}", "--deals",
                    "3", "--budget", "20", "--quiet")
    assert done.returncode == 1
    said = done.stderr.splitlines()
    assert len(said) == 1 and "forfeit" in said[0] and "HTTP 405" in said[0], said
    assert said[0].startswith(f"deal 0: {not_a_bot} forfeit: "), said
    assert "3 forfeit" in done.stdout

@pytest.mark.http
def test_a_bot_that_refuses_the_connection_stops_the_match(server):
    """Nothing listens at the bot's URL: one line saying so, the match stopped, exit 2 (as
    for a service out of reach), rather than a forfeit per deal in requests' words."""
    url = f"http://127.0.0.1:{free_port()}/"
    done = cardavia(server, "match", "durak", "--seats", f"strong,{url}", "--deals", "5",
                    "--budget", "20")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"cardavia: cannot reach the bot at {url}: connection refused; is it running? "
        "(the match stopped at deal 0)"]


class Slow(BaseHTTPRequestHandler):
    """A bot that answers nothing until the test lets it: late however busy the machine."""

    release = threading.Event()

    def do_POST(self):
        self.release.wait(60)
        self.send_response(500)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.mark.http
def test_a_bot_later_than_its_move_timeout_forfeits_saying_so(server):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_port}/"
        done = cardavia(server, "match", "durak", "--seats", f"basic,{url}", "--deals", "1",
                        "--budget", "20", "--move-timeout", "0.25", "--json", "--quiet")
    finally:
        Slow.release.set()
        httpd.shutdown()
    assert done.returncode == 1, done.stderr
    assert [(r["forfeit"], r["reason"]) for r in json.loads(done.stdout)["results"]] == [
        (1, "the bot did not answer within 0.25 s")]


@pytest.mark.http
def test_a_match_of_four_with_passing_on_deals_every_deal_so(server):
    done = cardavia(server, "match", "durak", "--seats", "random,basic,random,basic",
                    "--deals", "2", "--seed", "3", "--transfer", "--cards", "52", "--json",
                    "--quiet")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [len(r["scores"]) for r in out["results"]] == [4, 4]
    assert out["deal"] == {"transfer": True, "cards": 52}
    text = cardavia(server, "match", "durak", "--seats", "random,basic,random,basic",
                    "--deals", "1", "--transfer", "--quiet")
    assert text.stdout.startswith("durak, transfer true: 1 deal (seed 0)"), text.stdout
    # The options reach the service's deal: one it refuses is its problem, named.
    refused = cardavia(server, "match", "ganjifa", "--seats", "basic,basic,basic",
                       "--transfer")
    assert refused.returncode != 0 and "transfer" in refused.stderr, refused.stderr


@pytest.mark.http
@pytest.mark.parametrize(("args", "said"), [
    (("ganjifa", "--seats", "basic,basic"),
     "--seats: Ganjifa is played by exactly 3 seats (got 2)"),
    (("tarot", "--seats", "basic,basic"), "--seats: Tarot takes 3 to 5 seats (got 2)"),
    (("durak", "--seats", ",".join(["random"] * 7)), "--seats: Durak takes 2 to 6 seats (got 7)"),
    (("durak", "--seats", "basic,basic", "--budget", "0"),
     "--budget: the AI's budget is 1 to 10000 ms (got 0)"),
    (("durak", "--seats", "basic,basic", "--period", "night"), "--period applies to Ganjifa only"),
    (("tarot", "--seats", "basic,basic,basic", "--cards", "24"), "--cards applies to Durak only"),
    (("ganjifa", "--seats", "basic,basic,basic", "--dealer", "1"),
     "--dealer applies to Tarot only"),
    # What only the service knows (D16) is its message, with the flag's name for the field.
    (("durak", "--seats", ",".join(["random"] * 5), "--cards", "24"),
     "--seats: 5 players are too many for 24 cards: at most 4 (D16)."),
])
def test_wrong_seats_and_options_are_said_in_the_flags_words(server, args, said):
    done = cardavia(server, "match", *args, "--deals", "1")
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert "Unknown field" not in done.stderr and "budget_ms" not in done.stderr

@pytest.mark.http
def test_one_deal_between_alike_players_names_each(server):
    """Players of one level are numbered by their place in --seats, in the figures and in
    each deal's line (which says the player at each seat); one deal is "1 deal"."""
    done = cardavia(server, "match", "durak", "--seats", "random,random,basic", "--deals",
                    "1", "--budget", "20", "--seed", "2")
    assert done.returncode == 0, done.stderr
    assert "durak: 1 deal (seed 2), the players" in done.stdout
    assert "  1. random #1: 1 deal, " in done.stdout and "  3. basic: 1 deal, " in done.stdout
    assert re.fullmatch(r"deal 2: seat 0 random #1 [-+]\d, seat 1 random #2 [-+]\d, "
                        r"seat 2 basic [-+]\d\n", done.stderr), done.stderr

def test_bad_seats_are_bad_usage(server):
    done = cardavia(server, "match", "durak", "--seats", "strong,grandmaster")
    assert done.returncode == 2 and "grandmaster" in done.stderr


def test_figures_of_known_deals():
    players = [match.Player("strong"), match.Player("basic")]
    durak = [match.DealResult(0, [0, 1], 30, {"scores": [1, -1]}),
             match.DealResult(1, [1, 0], 30, {"scores": [1, -1]}),
             match.DealResult(2, [0, 1], 30, {"scores": [0, 0]}),
             match.DealResult(3, [1, 0], 3, forfeit=1, reason="late")]
    strong, basic = match.figures(match.Scoring("score", (-1, 1)), players, durak)
    assert (strong["wins"], strong["losses"], strong["draws"]) == (1, 1, 1)
    assert strong["won_of_decided"] == 0.5 and strong["won_ci"] == match.wilson(1, 2)
    assert basic["forfeits"] == 1 and basic["deals"] == 3
    three = [match.Player("strong"), match.Player("basic"), match.Player("random")]
    ganjifa = [match.DealResult(0, [0, 1, 2], 90, {"scores": [40, 40, 40],
                                                    "winners": [0, 1]})]
    shares = [f["win_share"] for f in match.figures(match.Scoring("winners"), three, ganjifa)]
    assert shares == [0.5, 0.5, 0]


def test_D25_a_mean_score_interval_stays_within_the_scores_a_deal_can_give():
    """Three players of Durak score from -2 to +1 a deal (D25): Student's t over three deals
    reaches past both ends, and is clipped to them."""
    three = [match.Player("strong"), match.Player("basic"), match.Player("random")]
    deals = [match.DealResult(i, [(s - i) % 3 for s in range(3)], 30, {"scores": [1, 1, -2]})
             for i in range(3)]
    table = match.figures(match.Scoring.of(SCHEMAS["durak"].info(), 3), three, deals)
    assert [f["mean_score"] for f in table] == [0, 0, 0]
    assert all(f["score_ci"] == (-2, 1) for f in table), table


def test_T3_T17_tarot_figures_count_the_camp_won_and_say_the_annulled_deals():
    """A seat of the camp that won the deal (T17: a positive score) won it; an annulled deal
    (T3) scores 0 and is neither won nor lost, and the report says how many there were."""
    four = [match.Player(p) for p in ("strong", "basic", "basic", "random")]
    tarot = [match.DealResult(0, [0, 1, 2, 3], 80, {"scores": [174, -58, -58, -58]}),
             match.DealResult(1, [3, 0, 1, 2], 4, {"annulled": "all_pass",
                                                   "scores": [0, 0, 0, 0]}),
             match.DealResult(2, [2, 3, 0, 1], 80, {"scores": [-75, 25, 25, 25]}),
             match.DealResult(3, [1, 2, 3, 0], 4, {"annulled": "all_pass",
                                                   "scores": [0, 0, 0, 0]})]
    table = match.figures(match.Scoring.of(SCHEMAS["tarot"].info(), 4), four, tarot)
    strong, random_ = table[0], table[3]
    assert (strong["wins"], strong["losses"], strong["annulled"]) == (2, 0, 2)
    assert strong["won_of_decided"] == 1 and strong["won_ci"] == match.wilson(2, 2)
    assert strong["mean_score"] == pytest.approx((174 + 25) / 4)
    assert (random_["wins"], random_["losses"]) == (1, 1)
    text = match.report("tarot", 4, 0, 200, table, annulled=match.annulled(tarot))
    assert "2 of 4 deals annulled (every seat passed): scored 0, neither won nor lost" in text
    assert "1. strong: 4 deals, 2 won, 0 lost, 2 annulled" in text
    assert "camp won 100.0% of the deals not annulled" in text

def test_the_readmes_lead_to_the_example_bot_as_it_is():
    """README links to the bot; the client's README, which documents the protocol, shows
    it whole; it stays short enough to read at a glance."""
    readme = (ROOT / "README.md").read_text()
    assert "](clients/python/examples/bot.py)" in readme
    assert f"of {len(BOT.read_text().splitlines())} lines" in readme
    client_readme = (ROOT / "clients" / "python" / "README.md").read_text()
    assert f"```python\n{BOT.read_text()}```" in client_readme
    assert len(BOT.read_text().splitlines()) <= 30


class Steady(BaseHTTPRequestHandler):
    """A bot that plays the first move it is offered (a template's first cards), keeps what
    it is told of each deal's end, and holds its very first move until a second request is
    in flight (or 20 s): the most requests it has had in flight at once is `most`."""

    lock = threading.Condition()
    in_flight = most = asked = 0
    told: list[dict] = []

    def do_POST(self):
        asked = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        cls = type(self)
        with cls.lock:
            cls.in_flight += 1
            cls.most = max(cls.most, cls.in_flight)
            cls.lock.notify_all()
            cls.asked += 1
            if cls.asked == 1:
                cls.lock.wait_for(lambda: cls.in_flight > 1, timeout=20)
            cls.in_flight -= 1
            if "result" in asked:
                cls.told.append(asked)
        if "result" in asked:
            body = b"{}"
        else:
            move = asked["legal_moves"][0]
            if "count" in move:
                cards = move["must_include"] + [c for c in move["choose_from"]
                                                if c not in move["must_include"]]
                move = {"seat": move["seat"], "action": move["action"],
                        "cards": cards[:move["count"]]}
            body = json.dumps({"move": move}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.mark.http
def test_deals_played_at_once_give_the_match_one_after_another_gives(server):
    """--jobs 2 plays two deals at once (the bot has two moves in flight), and gives the
    same deals, records, figures and lines as --jobs 1: the AI's moves are seeded per deal
    and move, the lines said in the order of the seeds. Each bot seat is told how each
    deal ended, once, under the deal's name."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Steady)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_port}/"
        args = ("match", "tarot", "--seats", f"basic,{url},random", "--deals", "4",
                "--budget", "20", "--seed", "11", "--json")
        together = cardavia(server, *args, "--jobs", "2")  # first: the bot's first move waits
        apart = cardavia(server, *args)
    finally:
        httpd.shutdown()
    assert apart.returncode == together.returncode == 0, together.stderr
    assert Steady.most == 2
    assert together.stderr == apart.stderr
    one, two = json.loads(apart.stdout), json.loads(together.stdout)
    for r in one["results"] + two["results"]:
        deal_id = r.pop("deal_id")
        told = [t for t in Steady.told if t["deal"] == deal_id]
        assert [(t["seat"], t["result"]) for t in told] == [
            (r["players_at"].index(1), {"settlement": told[0]["result"]["settlement"],
                                        "forfeit": None})]
        assert told[0]["result"]["settlement"]["scores"] == r["scores"]
        assert told[0]["view"]["to_act"] is None  # the deal's last state, as its seat sees it
    assert one == two
    assert len(Steady.told) == 8


@pytest.mark.http
@pytest.mark.parametrize("args", [("--jobs", "0"), ("--jobs", "65"), ("--move-timeout", "0"),
                                  ("--move-timeout", "-1")])
def test_jobs_and_move_timeout_out_of_range_are_bad_usage(server, args):
    done = cardavia(server, "match", "durak", "--seats", "basic,basic", *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"cardavia: {args[0]}: "), done.stderr


@pytest.mark.http
def test_url_and_lang_after_the_subcommand_as_before_it(server):
    """`cardavia match durak … --url URL` asks URL, as `cardavia --url URL match durak …`
    does; any subcommand, --lang too. CARDAVIA_URL names a port where nothing listens."""
    env = {**os.environ, "CARDAVIA_URL": f"http://127.0.0.1:{free_port()}"}
    after = subprocess.run([CARDAVIA, "match", "durak", "--seats", "random,basic", "--deals",
                            "1", "--quiet", "--url", server], capture_output=True, text=True,
                           env=env, timeout=120)
    before = subprocess.run([CARDAVIA, "--url", server, "match", "durak", "--seats",
                             "random,basic", "--deals", "1", "--quiet"],
                            capture_output=True, text=True, env=env, timeout=120)
    assert after.returncode == 0 and after.stdout == before.stdout, after.stderr
    dealt = subprocess.run([CARDAVIA, "deal", "durak", "--seed", "1", "--url", server,
                            "--lang", "fa"], capture_output=True, text=True, env=env,
                           timeout=60)
    assert dealt.returncode == 0 and json.loads(dealt.stdout)["state"]["game"] == "durak"
    scored = subprocess.run([CARDAVIA, "score", "--contract", "garde", "--taker", "1",
                             "--bouts", "2", "--points", "45", "--url", server, "--lang",
                             "hu"], capture_output=True, text=True, env=env, timeout=60)
    english = subprocess.run([CARDAVIA, "--url", server, "score", "--contract", "garde",
                              "--taker", "1", "--bouts", "2", "--points", "45"],
                             capture_output=True, text=True, env=env, timeout=60)
    assert scored.returncode == english.returncode == 0, scored.stderr
    assert scored.stdout != english.stdout  # --lang after the subcommand was heard


class Busy:
    """A client whose service answers an ai-move 503 `ai-busy` `busy` times first."""

    def __init__(self, busy: int, status: int = 503, retry_after: float | None = None):
        self.busy, self.status, self.asked = busy, status, 0
        self.retry_after = retry_after

    def ai_move(self, game, state, **asked):
        self.asked += 1
        if self.asked <= self.busy:
            raise ProblemError({"status": self.status, "title": "busy", "detail": "later"},
                               self.retry_after)
        return AiMove({"seat": 0, "action": "take"}, asked["level"], 1)


def test_an_ai_move_the_service_is_too_busy_for_is_asked_again(monkeypatch):
    """Deals at once meet the prod stack's limits (429 at the edge, 503 `ai-busy`): the
    move is asked again after a pause, for a while, then the problem is raised; any other
    problem at once."""
    monkeypatch.setattr(match, "BUSY_RETRY_S", (0.01, 0.05))
    m = match.Match("durak", [match.Player("basic"), match.Player("basic")])
    for status in (429, 503):
        busy = Busy(2, status)
        assert m.ai_move(busy, {}, 0, "basic", 1) == {"seat": 0, "action": "take"}
        assert busy.asked == 3
    with pytest.raises(ProblemError):
        m.ai_move(Busy(100), {}, 0, "basic", 1)
    refused = Busy(1, 422)
    with pytest.raises(ProblemError):
        m.ai_move(refused, {}, 0, "basic", 1)
    assert refused.asked == 1


def test_a_spent_ai_budget_is_asked_again_when_its_retry_after_says(monkeypatch):
    """A 429 `ai-budget-spent` says in Retry-After when the client's share holds the search
    (service/budget.py): the match waits that long, not a second at a time, and no longer
    than its patience in all."""
    slept: list[float] = []
    monkeypatch.setattr(match.time, "sleep", slept.append)
    monkeypatch.setattr(match, "BUSY_RETRY_S", (1.0, 10.0))
    told: list[tuple[int, float]] = []
    m = match.Match("durak", [match.Player("strong"), match.Player("basic")],
                    waiting=lambda problem, seconds: told.append((problem.status, seconds)))
    assert m.ai_move(Busy(2, 429, retry_after=4), {}, 0, "strong", 1)["action"] == "take"
    assert slept == [4, 4]
    assert told == [(429, 4), (429, 4)]  # the CLI says why it pauses
    slept.clear()
    with pytest.raises(ProblemError):
        m.ai_move(Busy(9, 429, retry_after=4), {}, 0, "strong", 1)
    assert slept == [4, 4, 2]


def test_the_client_reads_a_problems_retry_after():
    assert [seconds(v) for v in ("3", " 12 ", None, "", "Wed, 21 Oct 2026 07:28:00 GMT")] == [
        3, 12, None, None, None]
