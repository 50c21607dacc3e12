#!/usr/bin/env bash
# On-demand benchmark: one tenant of 1,000,000 projects (and a 10,000-project one for the migration and the purge),
# loaded straight into the engine with its limits off (8 writers, BatchWriteItem), kept on disk in DATA_DIR; then,
# at DynamoDB's limits (scale 1) and the default JobPartitionShare, each operation's time and DynamoDB calls.
# The load takes ~12 minutes on 2 cores and ~2 GB of disk; it is skipped when DATA_DIR already holds it. The measure
# changes the data (stats, migration, purge): it runs on a copy.
# Usage: bash bench/million.sh [projects (default 1000000)] [share] ; DATA_DIR=/path to keep the load elsewhere
# With a share (a fraction of a partition, e.g. 1), the million's own migration to 10 shards and then its purge are
# measured too, at that share (without one they are extrapolated from the 10,000): at the default 0.25 each takes
# over an hour by design.
set -euo pipefail
cd "$(dirname "$0")/.."
projects="${1:-1000000}"
share="${2:-}"
data="${DATA_DIR:-target/million/$projects}"
if [ ! -f "$data/million.loaded" ] || [ ! -f "$data/sample.loaded" ]; then
  rm -rf "$data"
  bash bench/java-main.sh MillionBenchmark load "$(realpath -m "$data")" "$projects"
  bash bench/java-main.sh MillionBenchmark load "$(realpath -m "$data")" 10000 sample
fi
run="$data.run"
rm -rf "$run"
cp -r "$data" "$run"
bash bench/java-main.sh MillionBenchmark measure "$(realpath -m "$run")" $share | grep -v '^{'
