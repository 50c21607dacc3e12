#!/usr/bin/env bash
# Runs one benchmark's main class from bench/java (on the tests' helpers), against the embedded engine: what every
# bench/*.sh does.
# Usage: bash bench/java-main.sh <simple class name in dev.oneread.bench> [args ...]
set -euo pipefail
cd "$(dirname "$0")/.."
main="$1"
shift
[ -f local/node_modules/dynalite/cli.js ] || npm ci --prefix local --no-audit --no-fund
mvn -B -q install -DskipTests
mvn -B -q -pl bench/java exec:java -Dexec.mainClass="dev.oneread.bench.$main" -Dexec.args="$*"
