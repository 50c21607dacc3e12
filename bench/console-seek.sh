#!/usr/bin/env bash
# On-demand benchmark: seek in the console, in chromium, on a COPY of a loaded table (default: bench/million.sh's
# 100,000-project load in /work/data/100k): the first page from a click, the id at a position (default 62,000) by
# the "go to" box, the newest and oldest ends, each timed to its row on screen; the page's JS heap and its rows.
# Usage: bash bench/console-seek.sh [data dir] [position]
set -euo pipefail
cd "$(dirname "$0")/.."
data="${1:-/work/data/100k}"
at="${2:-62000}"
run="$(mktemp -d)/seek-data"
cp -r "$data" "$run"
trap 'rm -rf "$(dirname "$run")"' EXIT
bash bench/java-main.sh ConsoleSeekBenchmark "$run" "$at"
