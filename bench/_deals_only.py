"""The child of `--only instructions`: seeded random deals of one game, nothing else.

Run by path, `python bench/_deals_only.py TREE MODULE DEALS [OPTIONS_JSON]`, under
callgrind. It imports only `rules.<MODULE>` from TREE (this tree or a baseline revision's
worktree) and `bench.deals.play_deal` from this tree, the same driver on both sides, so
the counts differ only by the rules. No schemas, no marshmallow: start-up stays short under
valgrind, and it cancels anyway against the same child run with 0 deals.
"""

import importlib
import importlib.util
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> None:
    tree, module, deals = argv[0], argv[1], int(argv[2])
    options = json.loads(argv[3]) if len(argv) > 3 else {}
    # sys.path[0] is this script's folder (bench/), whose http.py would shadow the stdlib's.
    sys.path[0] = tree
    spec = importlib.util.spec_from_file_location(
        "bench", HERE / "__init__.py", submodule_search_locations=[str(HERE)])
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["bench"] = bench
    spec.loader.exec_module(bench)
    from bench.deals import play_deal

    game = importlib.import_module(f"rules.{module}").GAME
    if options:  # fail at import time too, at a revision whose deal() takes no options
        game.deal(random.Random(-1), **options)
    moves = sum(play_deal(game, random.Random(seed), **options) for seed in range(deals))
    print(json.dumps({"deals": deals, "moves": moves}))


if __name__ == "__main__":
    main(sys.argv[1:])
