#!/usr/bin/env bash
# On-demand benchmark: a 10-shard ListProjects page (parallel fan-out) against the same 10 queries issued one
# after another, side by side, at each network latency given in ms (default: 0 and 5).
# Usage: bash bench/fan-out.sh [latency-ms ...]
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f local/node_modules/dynalite/cli.js ] || npm ci --prefix local --no-audit --no-fund
mvn -B -q install -DskipTests
mvn -B -q -pl tests test-compile exec:java -Dexec.classpathScope=test \
  -Dexec.mainClass=dev.oneread.tests.FanOutBenchmark -Dexec.args="${*:-0 5}"
