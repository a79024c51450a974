#!/bin/sh
# Mutation testing of the saved-game code (issue 13): how many mutants of the code that
# writes and replays the log do the tests notice? A surviving mutant there is a way to lose
# a game that no test would see.
#
#   bench/mutation-store.sh            # all mutants (long: about a minute per surviving mutant)
#   WORK=/tmp/m bench/mutation-store.sh   # keep the work tree (mutmut's cache) to look at survivors:
#                                          #   cd /tmp/m/tree && /tmp/m/venv/bin/mutmut show <id>
#
# mutmut 2 (PyPI) mutates the files in place, so the CLI and process tests' own
# `python -m narrator` subprocesses run the mutant too. It runs on a copy of the checkout
# (the checkout itself is never touched), with this checkout's .venv for the tests; the
# copy's folder comes first on sys.path, so the copy's (mutated) package is the one imported.
set -eu
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK/tree"
tar -C "$REPO" --exclude=./.venv --exclude=./.git --exclude=./.mutmut-cache --exclude='*/cache' -cf - . \
    | tar -C "$WORK/tree" -xf -
[ -x "$WORK/venv/bin/mutmut" ] || { python3 -m venv "$WORK/venv" && "$WORK/venv/bin/pip" install -q "mutmut==2.5.1"; }
TESTS="tests/test_store.py tests/test_cli.py tests/test_process.py tests/test_saved_game_cli.py tests/test_bad_input_cli.py"
cd "$WORK/tree"
"$WORK/venv/bin/mutmut" run \
    --paths-to-mutate narrator/table/store.py,narrator/table/runner.py \
    --tests-dir tests \
    --runner "$REPO/.venv/bin/python -m pytest -x -q -p no:cacheprovider -m 'not chroot' $TESTS" || true
"$WORK/venv/bin/mutmut" results
echo "work tree: $WORK/tree"
