#!/usr/bin/env bash
# Formats every C++ file git tracks (and any given) with the repository's .clang-format, in place:
#   bash scripts/format.sh            # every tracked *.cpp, *.hpp, *.h
#   bash scripts/format.sh FILE...    # those files
# clang-format 14 (Debian 12's `clang-format`) is what the check (scripts/check-format.sh) runs; another
# version may format some constructs differently. CLANG_FORMAT chooses the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format}
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h')
fi
[ ${#files[@]} -eq 0 ] && exit 0
printf '%s\0' "${files[@]}" | xargs -0 -n 50 "$clang_format" -i --style=file
echo "format: ${#files[@]} files formatted with $("$clang_format" --version | head -n 1)"
