"""``python -m graphmem.embed [MODEL]``: fetch and write what the embedding model runs from
(the default model without an argument), once per machine; ``bootstrap.sh`` calls it."""

from __future__ import annotations

import sys

from . import DEFAULT_MODEL, prepare

if __name__ == "__main__":
    prepare(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_MODEL)
