#!/usr/bin/env bash
# On-demand benchmark: the local console at scale in Debian's chromium (apt-get install chromium chromium-driver):
# 10,016 projects across 50 workspaces; the partition list, a 1,000-item collection, and 20 live updates, each
# timed in the browser's own clock.
# Usage: bash bench/console.sh
set -euo pipefail
exec bash "$(dirname "$0")/java-main.sh" ConsoleBenchmark
