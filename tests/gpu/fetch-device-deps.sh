#!/usr/bin/env bash
# tests/gpu/fetch-device-deps.sh [DIR]
#
# Downloads, on a Debian 12 machine with apt (no root needed), the Debian packages that the build
# of tests/gpu/run-device-checks.sh needs and that the GPU machine's image lacks, into DIR
# (default .devdeps in the repository root, which git ignores). The GPU machine has no network:
# DIR travels with the working tree (the device `run` call's carry), and run-device-checks.sh
# unpacks it into its build folder, never into /.
#
#   nlohmann-json3-dev  header-only, CMake config (every part of the tree)
#   libcli11-dev        header-only, CMake config (moe-train)
#   zlib1g-dev          zlib.h and libz.a (the engine's .gz reader); the image may have no headers
#   googletest          GoogleTest's sources: run-device-checks.sh builds GTest with the image's
#                       own compiler, as libgtest-dev's prebuilt archives are Debian g++ 12's
#   libgloo-dev         Gloo's headers for c10d's Gloo process group (PyPI's torch wheel has none)
#
# Not LibTorch: the device build uses the CUDA LibTorch of the image's Python. Exit status 0 when every package was downloaded, 1 otherwise.
set -eu -o pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:-$ROOT/.devdeps}
PACKAGES=(nlohmann-json3-dev libcli11-dev zlib1g-dev googletest libgloo-dev)
# What the carry may hold in all is 64 MiB; these are under 2 MiB together.
MAX_BYTES=$((20 * 1024 * 1024))

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
# Old versions would be unpacked beside the new ones.
rm -f "$DIR"/*.deb
# apt-get download writes into the current directory.
(cd "$DIR" && apt-get download "${PACKAGES[@]}")
# apt names a version's epoch "1%3a": without it, every name is plain letters, digits and ._-.
for f in "$DIR"/*.deb; do
  if [[ $f =~ ^(.*_)[0-9]+%3a(.*)$ ]]; then
    mv "$f" "${BASH_REMATCH[1]}${BASH_REMATCH[2]}"
  fi
done

total=0
for p in "${PACKAGES[@]}"; do
  deb=$(compgen -G "$DIR/${p}_*.deb" | head -1) || true
  if [ -z "$deb" ]; then
    echo "missing: $p" >&2
    exit 1
  fi
  size=$(stat -c %s "$deb")
  total=$((total + size))
  printf '%8d KiB  %s\n' $((size / 1024)) "$(basename "$deb")"
done
printf '%8d KiB  in all, in %s\n' $((total / 1024)) "$DIR"
if [ "$total" -gt "$MAX_BYTES" ]; then
  echo "more than $((MAX_BYTES / 1024 / 1024)) MiB: too much to carry" >&2
  exit 1
fi
