#!/usr/bin/env bash
# On-demand benchmark: the console on one tenant of 1,000,000 projects (the load of bench/million.sh, reused when
# DATA_DIR already holds it), and with HOT=1 on a 10-shard tenant of as many: the background count's duration, the
# partition list, the first and the next collection page (medians), and the runner's heap after a GC.
# Usage: bash bench/console-scale.sh [projects (default 1000000)] ; DATA_DIR=/path to keep the load elsewhere
set -euo pipefail
cd "$(dirname "$0")/.."
projects="${1:-1000000}"
data="${DATA_DIR:-target/million/$projects}"
if [ ! -f "$data/million.loaded" ]; then
  rm -rf "$data"
  bash bench/java-main.sh MillionBenchmark load "$(realpath -m "$data")" "$projects"
fi
run="$data.console"
rm -rf "$run"
cp -r "$data" "$run"
bash bench/java-main.sh ConsoleScaleBenchmark measure "$(realpath -m "$run")" million
if [ "${HOT:-}" = 1 ]; then
  hot="$data.hot"
  if [ ! -f "$hot/millionhot.loaded" ]; then
    rm -rf "$hot"
    bash bench/java-main.sh ConsoleScaleBenchmark load-hot "$(realpath -m "$hot")" "$projects"
  fi
  rm -rf "$hot.console"
  cp -r "$hot" "$hot.console"
  bash bench/java-main.sh ConsoleScaleBenchmark measure "$(realpath -m "$hot.console")" millionhot 10
fi
