#!/usr/bin/env bash
# On-demand benchmark: the local console at scale in Debian's chromium (apt-get install chromium chromium-driver):
# 10,016 projects across 50 workspaces; the partition list, a 1,000-item collection, and 20 live updates, each
# timed in the browser's own clock.
# Usage: bash bench/console.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f local/node_modules/dynalite/cli.js ] || npm ci --prefix local --no-audit --no-fund
mvn -B -q install -DskipTests
mvn -B -q -pl tests test-compile exec:java -Dexec.classpathScope=test \
  -Dexec.mainClass=dev.oneread.tests.ConsoleBenchmark
