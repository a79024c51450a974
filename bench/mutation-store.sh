#!/bin/sh
# Mutation testing of the saved-game code (issue 13): how many mutants of the code that
# writes and replays the log do the tests notice? A surviving mutant there is a way to lose
# a game that no test would see.
#
#   bench/mutation-store.sh                     # both files, under the CLI and process tests
#   WORK=/tmp/m bench/mutation-store.sh         # keep the work tree (mutmut's cache) to look at survivors:
#                                               #   cd /tmp/m/tree && /tmp/m/venv/bin/mutmut show <id>
#   PATHS=narrator/table/runner.py bench/mutation-store.sh   # one file (run two at once, each its own WORK)
#   TESTS="tests/test_store.py ..." bench/mutation-store.sh  # another test set
#   SAMPLE=30 SEED=1 bench/mutation-store.sh    # only a random sample of the mutants (bench/mutation_sample.py)
#
# Every surviving mutant costs a whole run of TESTS, so the default set is the quick one:
# the store's unit tests, the CLI tests (in-process) and the process tests (the SIGKILL
# test among them), fastest first so that -x stops a killed mutant early.
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
TESTS=${TESTS:-"tests/test_store.py tests/test_cli.py tests/test_process.py"}
PATHS=${PATHS:-narrator/table/store.py,narrator/table/runner.py}
RUNNER="$REPO/.venv/bin/python -m pytest -x -q -p no:cacheprovider -m 'not chroot' $TESTS"
cd "$WORK/tree"
if [ -n "${SAMPLE:-}" ]; then
    rm -f .mutmut-cache  # a fresh baseline for this test set (mutmut times mutants against it)
    exec "$WORK/venv/bin/python" "$REPO/bench/mutation_sample.py" "$PATHS" "$SAMPLE" "${SEED:-1}" "$RUNNER"
fi
"$WORK/venv/bin/mutmut" run \
    --paths-to-mutate "$PATHS" \
    --tests-dir tests \
    --runner "$RUNNER" || true
"$WORK/venv/bin/mutmut" results
echo "work tree: $WORK/tree"
