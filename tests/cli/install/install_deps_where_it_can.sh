#!/usr/bin/env bash
# scripts/install-deps.sh installs only the missing packages, and only where it can: with
# recording stand-ins for dpkg-query, id, sudo and apt-get on PATH (nothing is installed):
# 1. RMTSWEEP_SKIP_DEPS=1: no apt-get, the packages named, exit 0;
# 2. root, nothing missing: no apt-get;
# 3. root, libelpa-dev missing: apt-get update, then install of libelpa-dev alone;
# 4. not root and sudo asking for a password: no apt-get, the missing package named, exit 0;
# 5. no dpkg (a cluster that is not Debian): no apt-get, exit 0.
#
#   tests/cli/install/install_deps_where_it_can.sh SOURCE_DIR
set -uo pipefail
source_dir=${1:?usage: install_deps_where_it_can.sh SOURCE_DIR}
work=$(mktemp -d /tmp/rmtsweep-deps.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$work/bin"
cat > "$work/bin/dpkg-query" <<'STUB'
#!/bin/sh
for p in $FAKE_MISSING; do [ "$p" = "$3" ] && exit 1; done
printf 'install ok installed'
STUB
printf '#!/bin/sh\necho "${FAKE_UID:-0}"\n' > "$work/bin/id"
printf '#!/bin/sh\nexit 1\n' > "$work/bin/sudo"
printf '#!/bin/sh\necho "apt-get $*" >> "%s/apt.log"\n' "$work" > "$work/bin/apt-get"
chmod +x "$work/bin/"*
deps() {  # runs install-deps.sh with the stand-ins; its stderr in $work/out.log, the apt-get calls in apt.log
  rm -f "$work/apt.log"
  env PATH="$work/bin:$PATH" "$@" bash "$source_dir/scripts/install-deps.sh" 2> "$work/out.log"
}
apt_calls() { cat "$work/apt.log" 2>/dev/null; }

deps RMTSWEEP_SKIP_DEPS=1 FAKE_MISSING=libelpa-dev || fail "1: exit $?"
[ -z "$(apt_calls)" ] || fail "1: apt-get ran with RMTSWEEP_SKIP_DEPS=1: $(apt_calls)"
grep -q "libelpa-dev" "$work/out.log" || fail "1: the packages are not named: $(cat "$work/out.log")"

deps FAKE_MISSING= || fail "2: exit $?"
[ -z "$(apt_calls)" ] || fail "2: apt-get ran with nothing missing: $(apt_calls)"

deps FAKE_MISSING=libelpa-dev || fail "3: exit $?"
[ "$(apt_calls)" = "$(printf 'apt-get update -qq\napt-get install -y -qq --no-install-recommends libelpa-dev')" ] ||
  fail "3: expected an install of libelpa-dev alone, got: $(apt_calls)"

deps FAKE_UID=1000 FAKE_MISSING=libelpa-dev || fail "4: exit $?"
[ -z "$(apt_calls)" ] || fail "4: apt-get ran without root: $(apt_calls)"
grep -q "not root.*libelpa-dev" "$work/out.log" || fail "4: the missing package is not named: $(cat "$work/out.log")"

mkdir -p "$work/nodpkg"
for tool in grep cat; do ln -s "$(command -v $tool)" "$work/nodpkg/$tool"; done
ln -s "$work/bin/apt-get" "$work/nodpkg/apt-get"
rm -f "$work/apt.log"
env PATH="$work/nodpkg" "$(command -v bash)" "$source_dir/scripts/install-deps.sh" 2> "$work/out.log" || fail "5: exit $?"
[ -z "$(apt_calls)" ] || fail "5: apt-get ran without dpkg: $(apt_calls)"
grep -q "no dpkg" "$work/out.log" || fail "5: no message: $(cat "$work/out.log")"
echo "install_deps_where_it_can: PASS"
