#!/usr/bin/env bash
# scripts/test.sh: run every kubesim test, stopping at the first failure.
#
#   1. setup        scripts/setup.sh: installs whatever tool is missing (quick when all are there)
#   2. native       cargo test --all-targets, then cargo test --doc
#   3. browser      every test target built for wasm32 and run by wasm-bindgen-test-runner:
#                   suites with wasm_bindgen_test_configure!(run_in_browser) run in headless
#                   Chromium through /usr/bin/chromedriver (flags in webdriver.json), others in node
#   4. site build   trunk build --release --offline: the page builds, with nothing downloaded;
#                   then scripts/page-weight.sh: the page's gzip -9 weight within its budget, and
#                   an embed's download before Play (index.html + CSS) within 30 KiB
#   5. end-to-end   only if tests/e2e/run.mjs exists: `node tests/e2e/run.mjs` with the dist/
#                   just built (env: KUBESIM_DIST, CHROMIUM); it serves dist/ on localhost and
#                   drives Chromium with playwright-core; a non-zero exit fails the run.
#
# Usage: scripts/test.sh [cargo test args for steps 2 and 3, e.g. a test-name filter]
# Works from any directory: everything is relative to the repo this script lives in.
set -euo pipefail

# shellcheck source=scripts/setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/setup.sh" --install
ROOT="$KUBESIM_ROOT"
cd "$ROOT"

LOG="$(mktemp -t kubesim-test.XXXXXX)"
trap 'rm -f "$LOG"' EXIT
T0=$SECONDS
DONE=()

# step NAME COMMAND...: run, show and keep the output; on failure say which step failed and stop.
step() {
    local name="$1" t=$SECONDS rc=0
    shift
    echo
    echo "==> test.sh: $name: $*"
    "$@" 2>&1 | tee -a "$LOG" || rc=$?
    if [ "$rc" -ne 0 ]; then
        echo
        echo "test.sh: FAILED at step '$name' (exit $rc) after $((SECONDS - T0))s"
        echo "test.sh: command: $*"
        [ ${#DONE[@]} -eq 0 ] || echo "test.sh: steps that passed before it: ${DONE[*]}"
        exit "$rc"
    fi
    DONE+=("$name($((SECONDS - t))s)")
}

# the property run's CI slice: 60 seeds (the long runs are `kubesim fuzz`, README "Faults and
# the VOPR-style run")
export KUBESIM_VOPR_SEEDS="${KUBESIM_VOPR_SEEDS:-40}"
# serve_compare's CI slice: each scenario's read-only commands with one real kubectl, v1.32 and
# v1.37 in turn (`cargo test --test serve_compare` alone compares both on every one)
export KUBESIM_COMPARE_CLIENTS="${KUBESIM_COMPARE_CLIENTS:-alternate}"
step native cargo test --all-targets "$@"
step doctests cargo test --doc "$@"

# cargo runs each wasm32 test binary through wasm-bindgen-test-runner (the route of `wasm-pack test`,
# without wasm-pack's own tool look-ups). --tests leaves out doctests, which for wasm32 would only
# be linked to report "no tests to run!". Chromium's flags (--no-sandbox for root, no background
# networking) come from webdriver.json.
step browser env \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    CHROMEDRIVER=/usr/bin/chromedriver \
    WASM_BINDGEN_TEST_WEBDRIVER_JSON="$ROOT/webdriver.json" \
    WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-300}" \
    cargo test --target wasm32-unknown-unknown --tests "$@"

step site-build trunk build --release --offline
step page-weight scripts/page-weight.sh "$ROOT/dist"

if [ -f tests/e2e/run.mjs ]; then
    [ -f dist/index.html ] || { echo "test.sh: FAILED: dist/index.html missing after trunk build"; exit 1; }
    step e2e env KUBESIM_DIST="$ROOT/dist" CHROMIUM=/usr/bin/chromium node tests/e2e/run.mjs
else
    echo
    echo "==> test.sh: e2e: skipped (no tests/e2e/run.mjs)"
fi

# One closing line with the totals of every cargo/wasm-bindgen-test "test result:" line above.
read -r PASSED FAILED IGNORED < <(
    grep -E '^test result: ' "$LOG" | sed -nE 's/.* ([0-9]+) passed; ([0-9]+) failed; ([0-9]+) ignored.*/\1 \2 \3/p' |
        awk '{p += $1; f += $2; i += $3} END {print p + 0, f + 0, i + 0}'
)
echo
echo "test.sh: all steps passed in $((SECONDS - T0))s: ${DONE[*]}"
echo "tests: $PASSED passed, $FAILED failed, $IGNORED skipped"
