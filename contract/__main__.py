"""`python -m contract`: writes openapi.yaml as contract/build.py builds it; with `--check`,
says whether the file is that, and fails if not."""

from __future__ import annotations

import sys

from contract.build import OPENAPI, document, dumped


def main(argv: list[str]) -> int:
    text = dumped(document())
    if "--check" in argv:
        if OPENAPI.read_text() != text:
            print(f"{OPENAPI.name} is not what contract/build.py builds: run python -m contract",
                  file=sys.stderr)
            return 1
        return 0
    OPENAPI.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
