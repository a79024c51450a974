#!/bin/sh
# Mutation testing of the phone page: how many mutants of narrator/phones/ the phone tests kill.
#
#   bench/mutation-phones.sh [FILES]     e.g. bench/mutation-phones.sh "seats.py wire.py"
#
# mutmut (PyPI, 3.x) mutates narrator/phones/*.py (or only FILES) in a scratch copy of the
# working tree (MUTATION_DIR, default /tmp/narrator-mutation-phones), so the checkout is never
# touched, and runs the phone tests that reach each mutated function (the browser tests are
# left out: minutes each). Prints mutmut's results and killed/total per file.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${MUTATION_DIR:-/tmp/narrator-mutation-phones}
FILES=${1:-"seats.py host.py wire.py answers.py private.py views.py server.py guard.py table.py network.py"}
TESTS='"tests/test_phones_seats.py", "tests/test_phones_api.py", "tests/test_phones_security.py", "tests/test_phones_protections.py", "tests/test_phones_bestia.py", "tests/test_phones_page_state.py", "tests/test_phones_limits.py", "tests/test_aw_digital_cards.py", "tests/test_phones_wiring.py"'
MUTMUT=${MUTMUT:-$ROOT/.venv/bin/mutmut}
[ -x "$MUTMUT" ] || { echo "mutmut is not installed: $ROOT/.venv/bin/pip install mutmut" >&2; exit 2; }

rm -rf "$WORK" && mkdir -p "$WORK"
(cd "$ROOT" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$WORK" 2>/dev/null || true)
cp -r "$ROOT/voices" "$WORK/"  # rendered clips too
ONLY=""
for f in $FILES; do ONLY="$ONLY\"narrator/phones/$f\", "; done
cat >> "$WORK/pyproject.toml" <<TOML

[tool.mutmut]
source_paths = ["narrator/"]
only_mutate = [$ONLY]
also_copy = ["tests/", "voices/", "engines/", "bench/"]
pytest_add_cli_args_test_selection = [$TESTS]
pytest_add_cli_args = ["-p", "no:cacheprovider", "-m", "not chroot and not slow", "-q", "-x", "-k", "not 1024"]
TOML
cd "$WORK"
"$MUTMUT" run --max-children "${MUTATION_CHILDREN:-2}" >mutmut-run.log 2>&1 || true
"$MUTMUT" results --all true >mutmut-results.txt 2>&1 || "$MUTMUT" results >mutmut-results.txt 2>&1 || true
python3 - "$WORK/mutmut-results.txt" <<'PY'
import collections, re, sys
counts = collections.defaultdict(collections.Counter)
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r"\s*(narrator\.phones\.\w+)\.\S+: (\w[\w ]*)", line)
    if m:
        counts[m.group(1)][m.group(2).strip()] += 1
total = collections.Counter()
for module, c in sorted(counts.items()):
    n = sum(c.values())
    total.update(c)
    print(f"{module}: killed {c['killed']}/{n}  ({', '.join(f'{k} {v}' for k, v in sorted(c.items()))})")
n = sum(total.values())
print(f"all: killed {total['killed']}/{n} ({100 * total['killed'] / max(n, 1):.0f}%)")
PY
