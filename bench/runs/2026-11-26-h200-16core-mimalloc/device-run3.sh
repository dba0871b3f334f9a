#!/usr/bin/env bash
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p $OUT/s; OUT_ALL=$OUT
OUT=$OUT_ALL bash .devdata/run.sh "$1"
OUT=$OUT_ALL/s bash .devdata/run2.sh
