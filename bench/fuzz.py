"""`--only fuzz`: the mutation fuzzer of tests/support/fuzz.py run long, against a real
gunicorn unsigned and against one signing its states, from a seed of the run's choosing.
`make test` runs the same fuzzer bounded, with a fixed seed (tests/test_mutation_fuzz.py).
A failure is printed whole; the figures are the requests sent, the failures, and the
answers' statuses per endpoint."""

from __future__ import annotations

import time
from collections import Counter

from service.signing import Signer
from tests.support.fuzz import cases_summary, fuzz
from tests.support.servers import serving

KEY = "bench-fuzz-key"


def run(count: int, seed: int) -> dict:
    out: dict = {"count": count, "seed": seed, "modes": {}}
    for mode, settings, signer in [("unsigned", {}, None),
                                   ("signed", {"CARDAVIA_STATE_KEY": KEY}, Signer(KEY))]:
        started = time.perf_counter()
        with serving(**settings) as base:
            failures, seen = fuzz(base, seed, count, signer)
        for failure in failures:
            print(f"fuzz {mode}: {failure}", flush=True)
        out["modes"][mode] = {
            "seconds": round(time.perf_counter() - started, 1),
            "failures": [f._asdict() for f in failures],
            "statuses": {f"{e} {s}": n for (e, s), n in sorted(seen.items())},
            "summary": list(cases_summary(Counter(seen))),
        }
    return out


def rows(r: dict) -> tuple[list[str], list[list]]:
    def answered(m: dict, ok: bool) -> int:
        return sum(n for key, n in m["statuses"].items() if (key.endswith(" 200")) == ok)

    return ["mode", "cases", "failures", "seconds", "200", "4xx"], [
        [mode, r["count"], len(m["failures"]), m["seconds"], answered(m, True),
         answered(m, False)] for mode, m in r["modes"].items()]
