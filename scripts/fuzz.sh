#!/usr/bin/env bash
# Coverage-guided fuzzing of kubesim's parsers on stable Rust: libFuzzer (the libfuzzer-sys
# crate) with rustc's SanitizerCoverage pass, which stable rustc accepts (-Cpasses=sancov-module).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 600 s, every target)
#
# Targets run one after another at nice 19. Seeds: fuzz/corpus/<target>/ (committed); what a run
# adds goes to fuzz/target/corpus/<target>/ and crashers/hangs to fuzz/artifacts/<target>/ (both
# ignored by git). A crasher is minimized into fuzz/artifacts/<target>/min-*, to be copied into
# fuzz/regressions/<target>/ and tests/fuzz_regressions.rs once fixed. A crash ends libFuzzer's
# run, so a target is restarted until its time is used up. Per-input limit: FUZZ_TIMEOUT s (default 2).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
SECS=${1:-600}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(manifest apply kubectl_args script fragment jsonpath selectors quantity misc)
TIMEOUT=${FUZZ_TIMEOUT:-2}
TRIPLE=$(rustc -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing"
# --target keeps RUSTFLAGS off build scripts and proc macros
nice -n 19 cargo build --release --target "$TRIPLE" --bins
BIN=target/$TRIPLE/release
printf '%-13s %10s %8s %8s %6s %6s %s\n' target execs exec/s seconds crash hang "version: $(rustc -V | cut -d' ' -f2), libfuzzer-sys $(sed -n '/name = "libfuzzer-sys"/{n;s/version = //p}' Cargo.lock | tr -d '"')"
for t in "${TARGETS[@]}"; do
  work=target/corpus/$t art=artifacts/$t
  mkdir -p "$work" "$art" corpus/"$t"
  maxlen=4096
  case $t in manifest | apply | script) maxlen=16384 ;; esac
  start=$(date +%s) execs=0 crashes=0 hangs=0
  while :; do
    left=$((SECS - ($(date +%s) - start)))
    [ "$left" -le 0 ] && break
    log=$(mktemp)
    set +e
    nice -n 19 "$BIN/$t" "$work" corpus/"$t" -max_total_time="$left" -timeout="$TIMEOUT" -rss_limit_mb=4096 \
      -max_len=$maxlen -artifact_prefix="$art/" -print_final_stats=1 >"$log" 2>&1
    rc=$?
    set -e
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    # a crash skips the final stats: take the last status line's count
    [ -z "$n" ] && n=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    execs=$((execs + ${n:-0}))
    if [ $rc -ne 0 ]; then
      f=$(sed -n 's/.*Test unit written to //p' "$log" | tail -1)
      if grep -q 'ERROR: libFuzzer: timeout' "$log"; then hangs=$((hangs + 1)); else crashes=$((crashes + 1)); fi
      cp "$log" "$art/log-$(date +%s)"
      echo "  $t: $(grep -m1 -E "panicked at|ERROR: libFuzzer" "$log") -> $f" >&2
      if [ -n "$f" ] && [ -f "$f" ]; then
        nice -n 19 "$BIN/$t" -minimize_crash=1 -max_total_time=30 -timeout="$TIMEOUT" -exact_artifact_path="$art/min-$(basename "$f")" "$f" >/dev/null 2>&1 || true
      fi
      # the same bug would be found again at once: stop this target after 3 crashes
      [ $((crashes + hangs)) -ge 3 ] && { rm -f "$log"; break; }
    fi
    rm -f "$log"
  done
  el=$(($(date +%s) - start))
  printf '%-13s %10d %8d %8d %6d %6d\n' "$t" "$execs" $((execs / (el > 0 ? el : 1))) "$el" "$crashes" "$hangs"
done
