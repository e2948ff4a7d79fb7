"""`cardavia`: the service from a terminal.

    cardavia deal durak --seed 1 > dealt.json
    cardavia moves dealt.json
    cardavia move dealt.json attack 6S
    cardavia render dealt.json --seat 1
    cardavia score --contract garde --taker 1 --bouts 2 --points 45
    cardavia --lang fr score --players 5 --partner none --contract prise --bouts 1 --points 52
    cardavia score evening.json
    cardavia play durak
    cardavia play durak --players 4 --transfer --throw-in neighbours --cards 52
    cardavia --lang ru play durak --transfer --indices russian
    cardavia replay durak-record.json
    cardavia match durak --seats strong,basic --deals 100 --budget 200

The server is `--url`, else `CARDAVIA_URL`, else http://127.0.0.1:8000. Exit status: 0 on
success, 1 when a move (of a replayed record, of `move`, or a bot's in `match`) is illegal,
2 on bad usage (bad arguments, an unreadable file, a request the service refuses, a server
or a bot out of reach).

A move is written as its action and what goes with it, the way `moves` lists them:
`attack 8S`, `take`, `bid garde`, `discard 9D 1C 2C 6C 7C CC`, `chelem no`, `play RRAM`.
At the `play` prompt a move's number in the list, or just its card or contract, will do.
Labels (`score`'s sheet, the table) are in `--lang`'s language, as the service's table
page says them. With `--indices` a Durak table letters its courts as your own cards do
(`russian` В Д К Т, `french` V D R A, `english` J Q K A) and writes each card as its corner
reads, `Д♠`; at the `play` prompt a card is then typed either way.
"""

from __future__ import annotations

import argparse
import difflib
import importlib.metadata
import os
import re
import sys
from typing import NoReturn, cast

from cardavia_client.cli import deal, match, move, moves, play, render, replay, score
from cardavia_client.cli.common import USAGE, UsageError
from cardavia_client.cli.games import Games, read
from cardavia_client.client import (
    DEFAULT_URL,
    CardaviaError,
    Client,
    ProblemError,
    TimeoutError,
    UnreachableError,
)

# Each subcommand's module adds its parser (`add`) and runs it (`run`), in --help's order.
COMMANDS = (deal, moves, move, replay, score, render, play, match)


def version() -> str:
    """This client's version, as installed."""
    try:
        return importlib.metadata.version("cardavia-client")
    except importlib.metadata.PackageNotFoundError:  # run from its folder, not installed
        return "(not installed)"


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse names the choices of a mistyped subcommand or game; add the nearest.
        typo = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if typo:
            nearest = difflib.get_close_matches(typo.group(1),
                                                re.findall(r"'([^']*)'", typo.group(2)), n=1)
            if nearest:
                message += f"; did you mean '{nearest[0]}'?"
        self.print_usage(sys.stderr)
        self.exit(USAGE, f"{self.prog}: error: {message}\n")


def service_flags(add_help: bool = False) -> argparse.ArgumentParser:
    """The flags that say which service to ask, and in which language."""
    p = Parser(prog="cardavia", description=__doc__, add_help=add_help,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    where_flags(p, os.environ.get("CARDAVIA_URL", DEFAULT_URL))
    return p


def where_flags(p: argparse.ArgumentParser, url: str | None) -> None:
    """--url and --lang; a subcommand's have no default (`url` None), so that they are
    taken after it as before it (`cardavia match durak … --url …`) and left alone when
    not given there."""
    default = argparse.SUPPRESS if url is None else url
    p.add_argument("--url", default=default,
                   help=f"the service (default: $CARDAVIA_URL, else {DEFAULT_URL})")
    p.add_argument("--lang", default=None if url else argparse.SUPPRESS,
                   help="Accept-Language for messages and pictures: en, fr, hi, hu, fa, "
                   "ru or uk")


def parser(games: Games) -> argparse.ArgumentParser:
    """The whole command line, its games and their deal options as the service says them
    (`games`: none when it cannot say them, which leaves --help what needs no service)."""
    p = service_flags(add_help=True)
    p.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    p.set_defaults(games=games)
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        command.add(sub, games)
    for command_parser in sub.choices.values():
        where_flags(command_parser, None)
    return p


def parse(given: list[str], client: Client) -> argparse.Namespace:
    """The command line read against the games the service deals. When it cannot say them,
    `--help` and `--version` still answer, and any other command says why."""
    try:
        games = read(client)
    except CardaviaError:
        parser({}).parse_known_args(given)
        raise
    return parser(games).parse_args(given)


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    where = service_flags().parse_known_args(given)[0]
    try:
        with Client(where.url, language=where.lang) as client:
            args = parse(given, client)
            status = cast(int, args.run(client, args))
        sys.stdout.flush()  # here, where a closed pipe is caught, not at exit
        return status
    except BrokenPipeError:
        # The reader stopped (`| head -c 300`): no traceback, as any Unix tool. Whatever is
        # still buffered goes nowhere, and the status is a shell's for SIGPIPE.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + 13
    except (UsageError, CardaviaError) as e:
        print(f"cardavia: {failure(e, where.url)}", file=sys.stderr)
    except KeyboardInterrupt:
        print(file=sys.stderr)
    return USAGE


def failure(e: Exception, url: str) -> str:
    """What went wrong, for a person at the terminal (exit status 2)."""
    if isinstance(e, ProblemError):
        return f"the service refused the request: {e}"
    if isinstance(e, UnreachableError):
        return (f"cannot reach {url}: is the service running there? (`make serve`, or give "
                "--url or CARDAVIA_URL)")
    if isinstance(e, TimeoutError):
        return f"{url} took too long to answer: {e}"
    if isinstance(e, CardaviaError):
        return f"{url} is not answering as the Cardavia service: {e}"
    return str(e)
