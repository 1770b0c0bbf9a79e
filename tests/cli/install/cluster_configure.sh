#!/usr/bin/env bash
# The module-based cluster build of docs/install.md configures: install-deps skipped, every
# dependency given by the cache variables that page documents (here pointing at this machine's
# copies, as a site's modules would at theirs), and CMake keeps exactly the values given (a
# documented variable that the find modules did not read would be replaced or ignored).
#
#   tests/cli/install/cluster_configure.sh SOURCE_DIR
set -uo pipefail
source_dir=${1:?usage: cluster_configure.sh SOURCE_DIR}
work=$(mktemp -d /tmp/rmtsweep-cluster.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
lib=/usr/lib/x86_64-linux-gnu
RMTSWEEP_SKIP_DEPS=1 bash "$source_dir/scripts/install-deps.sh" 2>/dev/null || fail "install-deps with RMTSWEEP_SKIP_DEPS=1"
given=(
  MPI_CXX_COMPILER="$(command -v mpicxx)"
  ScaLAPACK_LIBRARY="$lib/libscalapack-openmpi.so"
  OpenBLAS_LIBRARY="$lib/libopenblas.so"
  HDF5Parallel_INCLUDE_DIR=/usr/include/hdf5/openmpi
  HDF5Parallel_LIBRARY="$lib/hdf5/openmpi/libhdf5.so"
  HDF5Parallel_HL_LIBRARY="$lib/hdf5/openmpi/libhdf5_hl.so"
  ELPA_INCLUDE_DIR=/usr/include/elpa
  ELPA_LIBRARY="$lib/libelpa.so"
  Random123_INCLUDE_DIR=/usr/include
)
args=()
for setting in "${given[@]}"; do args+=("-D$setting"); done
cmake -S "$source_dir" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$work/prefix" \
  -DCMAKE_PREFIX_PATH=/usr -DRMTSWEEP_BUILD_TESTS=OFF -DRMTSWEEP_BUILD_BENCH=OFF "${args[@]}" \
  > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "the documented configure failed"; }
for setting in "${given[@]}"; do
  name=${setting%%=*} value=${setting#*=}
  kept=$(sed -n "s/^$name:[A-Z]*=//p" "$work/build/CMakeCache.txt")
  [ "$kept" = "$value" ] || fail "$name: given $value, CMake kept '$kept'"
done
echo "cluster_configure: PASS (${#given[@]} documented variables kept)"
