#!/usr/bin/env bash
# On-demand benchmark: the console's filled Scan, 1% of 100,000 projects matching, followed to the end (issue 40,
# part 1). Runs on a copy of a load of bench/million.sh (never on the load itself: the benchmark renames 1% of the
# projects); DATA_DIR holds the load, made here when missing.
# Usage: bash bench/filled-scan.sh ; DATA_DIR=/path to reuse a load of 100,000 projects
set -euo pipefail
cd "$(dirname "$0")/.."
data="${DATA_DIR:-target/million/100000}"
if [ ! -f "$data/million.loaded" ]; then
  rm -rf "$data"
  bash bench/java-main.sh MillionBenchmark load "$(realpath -m "$data")" 100000
fi
run="$data.filled"
rm -rf "$run"
cp -r "$data" "$run"
bash bench/java-main.sh FilledScanBenchmark "$(realpath -m "$run")"
