#!/usr/bin/env bash
# Whether every C++ file git tracks (or those given) is as scripts/format.sh leaves it: prints each file that
# differs with the first lines of its diff and exits 1, else exits 0. The `style` test (ctest -L style) runs it.
# clang-format 14 is what the repository is formatted with (Debian 12's `clang-format`); with another the
# check is skipped (exit 77), since versions differ on some constructs. CLANG_FORMAT chooses the binary.
set -uo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format}
if ! command -v "$clang_format" > /dev/null; then
  echo "check-format: $clang_format not found (apt-get install clang-format): skipped"
  exit 77
fi
version=$("$clang_format" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [ "$version" != 14 ]; then
  echo "check-format: $clang_format is version $version, the repository is formatted with 14: skipped"
  exit 77
fi
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h')
fi
# One clang-format for every file (--dry-run names each that differs; a process a file took 8 times as long),
# then the first lines of the diff of each named.
mapfile -t differing < <("$clang_format" --style=file --dry-run "${files[@]}" 2>&1 |
  sed -n 's/^\(.*\):[0-9]*:[0-9]*: \(warning\|error\): code should be clang-formatted.*/\1/p' | awk '!seen[$0]++')
for file in "${differing[@]}"; do
  echo "$file: not formatted (bash scripts/format.sh $file):"
  "$clang_format" --style=file "$file" | diff "$file" - | head -n 8 | sed 's/^/    /'
done
if [ ${#differing[@]} -gt 0 ]; then
  echo "check-format: ${#differing[@]} of ${#files[@]} files differ from .clang-format: bash scripts/format.sh formats them"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
