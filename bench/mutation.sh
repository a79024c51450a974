#!/bin/sh
# Mutation testing: how many mutants of a core part do its tests kill? A surviving mutant is
# a change to the code that no test notices: in the saved game, a way to lose a game unseen;
# in the phones, a way to leak a role or a seat unseen.
#
#   bench/mutation.sh phones [FILES]   narrator/phones/ under the phone tests
#   bench/mutation.sh store [FILES]    narrator/table/{store,game_folder,snapshot,saved_games,event_log,runner,lock}.py under the
#                                      store, CLI, bad-input and process tests
#   bench/mutation.sh contract [FILES] the game contract: the typed events (cues.py), the
#                                      registry, contract.py, seating.py and phones/views.py
#                                      under the contract, phone-view and rules tests
#   bench/mutation.sh names [FILES]    the names a table types for cards and roles
#                                      (games/card_names.py, games/spoken_names.py: the pack's
#                                      label line is the name) under the card-name tests
#   bench/mutation.sh packs [FILES]    a pack's line references and the packs read once
#                                      (sound/line_refs.py, sound/pack_cache.py) under the
#                                      renamed-card, pack-cache and voice-pack tests
#   bench/mutation.sh rules [FILES]    every game's rules: Additional Werewolf's rules and cards,
#                                      Bestia Magica's night, vote and rules, Pagan's rules, the game-file kernel's engine, calls, judge, plans and passed rounds (paths
#                                      under narrator/games) under the rules, rulings, scenario,
#                                      table-guide and saved-game tests that call them in-process
#   e.g. bench/mutation.sh phones "seats.py views.py"
#        bench/mutation.sh rules "pagan/rules.py"
#   MUTATION_TESTS (test module names, space-separated) narrows the tests of a run; MUTANTS
#   (mutant names, space-separated, e.g. the survivors of the last run) checks those alone, so
#   the tests written for a run's survivors are measured in minutes, not another full run.
#
# mutmut 3 (PyPI; installed into .venv on first use) mutates the files in a scratch copy of the
# working tree (MUTATION_DIR, default /tmp/narrator-mutation-TARGET), so the checkout is never
# touched, and runs, for each mutant, the tests that reach the mutated function (the browser
# and chroot tests are left out: minutes each; the modules `scripts/test --quick` skips as
# slow, real processes and kills, stay in: they pin what a mutant would break). Tests that start `python -m narrator` run the
# mutant in the subprocess too (mutmut's trampolines follow the environment), but only tests
# that also call the function in-process are chosen for it, so the figure errs low.
# MUTATION_CHILDREN (default 2) mutants run at once. A test that runs past MUTATION_TEST_BOUND
# seconds (default 90; pytest-timeout, installed with mutmut) fails: a mutant that makes a test
# hang (a stream kept silent, a game that never ends) is caught by it, where mutmut's own CPU
# limit never fires for a test that waits without working; such kills take the bound's time
# (mutmut's meta files keep each mutant's duration). The thread method: it ends the test
# process (exit 1, a failure), where the signal method's exception, raised inside a game's
# asyncio task, is kept by the task and the loop spins on. Prints mutmut's results, every survivor's
# diff (mutation-survivors.txt in MUTATION_DIR) and killed/total per module.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TARGET=${1:?"which part: phones, store, contract, names, packs or rules"}
case "$TARGET" in
phones)
    PACKAGE=narrator/phones
    DEFAULT="seats.py host.py gate.py views.py private.py answers.py wire.py crypto.py channel.py host_channel.py server.py following.py page_view.py event_stream.py listening.py page_files.py guard.py table.py network.py app_cache.py decoys.py streams.py join_challenge.py naming.py host_turns.py carry.py settings_page.py provenance.py seats_keep.py"
    TESTS="test_phones_gate test_phones_jam test_phones_seats test_phones_host_replies test_phones_views test_phones_answer_replies test_phones_server_replies test_phones_api test_phones_security test_phones_protections test_phones_bestia test_phones_page_state test_phones_limits test_aw_digital_cards test_phones_wiring test_phones_crypto test_phones_wire test_phones_wire_mutants test_phones_channel_mutants test_phones_host_mutants test_phones_server_mutants test_host_sealed test_host_release test_host_carry test_phones_call_clock test_phones_memory test_phones_join_jam test_phones_streams test_phones_decoys test_settings_page test_page_guard test_phones_hostkey test_settings_page_mutants test_seat_carry_restart test_seats_keep_mutants" ;;
contract)
    PACKAGE=narrator
    DEFAULT="cues.py games/__init__.py games/contract.py games/seating.py phones/views.py"
    TESTS="test_game_contract test_phones_views test_new_game test_old_saved_games test_runner_loop test_phones_protections test_aw_digital_cards test_phones_bestia test_pagan_rules test_additional_werewolf_rules test_bestia_magica_rules" ;;
store)
    PACKAGE=narrator/table
    DEFAULT="store.py game_folder.py snapshot.py saved_games.py event_log.py runner.py lock.py"
    TESTS="test_store test_store_edges test_runner_loop test_cli test_bad_input_cli test_process test_saved_game_cli" ;;
names)
    PACKAGE=narrator/games
    DEFAULT="card_names.py spoken_names.py"
    TESTS="test_card_names test_card_names_from_packs test_kernel_aliases test_game_files test_settings_declared test_bestia_magica_setup test_split_seams" ;;
packs)
    PACKAGE=narrator/sound
    DEFAULT="line_refs.py pack_cache.py"
    TESTS="test_card_renamed_everywhere test_voice_packs_cache test_voice_packs test_render_cache" ;;
rules)
    PACKAGE=narrator/games
    DEFAULT="additional_werewolf/rules.py additional_werewolf/cards.py bestia_magica/night.py bestia_magica/vote.py bestia_magica/rules.py pagan/rules.py kernel/engine.py kernel/calls.py kernel/judge.py kernel/plans.py kernel/passed.py"
    TESTS="test_additional_werewolf_rules test_aw_rulings test_aw_digital_cards test_aw_table_guide test_saved_game_cli test_bestia_magica_rules test_bm_rulings test_bestia_magica_games test_bestia_magica_review test_bestia_magica_balance test_bestia_magica_cli test_pagan_rules test_pagan_rulings test_pagan_cli test_kernel_roles test_kernel_day_order test_kernel_aliases test_kernel_pass_device test_kernel_table_controls test_game_files test_kernel_rulings test_kernel_plans test_kernel_passed_round test_bm_survivors" ;;
*)
    echo "unknown part '$TARGET': use phones, store, contract, names, packs or rules" >&2; exit 2 ;;
esac
FILES=${2:-$DEFAULT}
TESTS=${MUTATION_TESTS:-$TESTS}
WORK=${MUTATION_DIR:-/tmp/narrator-mutation-$TARGET}
TEST_BOUND=${MUTATION_TEST_BOUND:-90}
MUTMUT=${MUTMUT:-$ROOT/.venv/bin/mutmut}  # a worktree without its own .venv: MUTMUT=/path/to/.venv/bin/mutmut
[ -x "$MUTMUT" ] && "$(dirname "$MUTMUT")/python" -c "import pytest_timeout" 2>/dev/null ||
    "$(dirname "$MUTMUT")/pip" install -q "mutmut==3.8.1" "pytest-timeout==2.4.0" || {
    echo "cannot install mutmut: run scripts/setup --test first, or $ROOT/.venv/bin/pip install mutmut pytest-timeout" >&2; exit 2; }

rm -rf "$WORK" && mkdir -p "$WORK"
(cd "$ROOT" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$WORK" 2>/dev/null || true)
cp -r "$ROOT/voices" "$WORK/"  # rendered clips too
ONLY="" SELECTED=""
for f in $FILES; do ONLY="$ONLY\"$PACKAGE/$f\", "; done
for t in $TESTS; do [ -f "$WORK/tests/$t.py" ] && SELECTED="$SELECTED\"tests/$t.py\", "; done
cat >> "$WORK/pyproject.toml" <<TOML

[tool.mutmut]
source_paths = ["narrator/"]
only_mutate = [$ONLY]
also_copy = ["tests/", "voices/", "engines/", "bench/", "docs/"]
pytest_add_cli_args_test_selection = [$SELECTED]
pytest_add_cli_args = ["-p", "no:cacheprovider", "-m", "not chroot", "-q", "-x", "-k", "not 1024", "--timeout", "$TEST_BOUND", "--timeout-method", "thread"]
TOML
cd "$WORK"
set -f  # MUTANTS may hold mutmut's wildcards: hand them over as they are
# shellcheck disable=SC2086  # MUTANTS: one word per mutant name
"$MUTMUT" run --max-children "${MUTATION_CHILDREN:-2}" ${MUTANTS:-} >mutmut-run.log 2>&1 || true
set +f
"$MUTMUT" results --all true >mutmut-results.txt 2>&1 || true
for name in $(grep -E ': (survived|no tests|timeout|suspicious)' mutmut-results.txt | sed 's/^ *//; s/:.*//'); do
    echo "== $name ($(grep -F "$name:" mutmut-results.txt | sed 's/.*: //'))"
    "$MUTMUT" show "$name" 2>/dev/null | grep -E '^[-+] ' || echo "   (no one-line diff: mutmut show $name)"
done >mutation-survivors.txt
python3 - "$WORK/mutmut-results.txt" <<'PY'
import collections, os, re, sys
counts = collections.defaultdict(collections.Counter)
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r"\s*(narrator[\w.]*?)\.x[_\u01c1]\S*: (\w[\w ]*)", line)  # module.x_func / module.xǁClassǁmethod
    if m and not (os.environ.get("MUTANTS") and m.group(2).strip() == "not checked"):  # a re-check: those named
        counts[m.group(1)][m.group(2).strip()] += 1
total = collections.Counter()
for module, c in sorted(counts.items()):
    n = sum(c.values())
    total.update(c)
    print(f"{module}: killed {c['killed']}/{n}  ({', '.join(f'{k} {v}' for k, v in sorted(c.items()))})")
n = sum(total.values())
print(f"all: killed {total['killed']}/{n} ({100 * total['killed'] / max(n, 1):.0f}%)")
PY
echo "survivors' diffs: $WORK/mutation-survivors.txt"
