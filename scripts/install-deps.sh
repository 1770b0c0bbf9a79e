#!/usr/bin/env bash
# Installs rmtsweep's build and run dependencies from Debian 12's packages, when missing.
# Needs root (or sudo). Safe to run again: it installs only what is not there.
set -euo pipefail
packages=(
  openmpi-bin libopenmpi-dev libscalapack-openmpi-dev libhdf5-openmpi-dev hdf5-tools
  libboost-dev libboost-program-options-dev libopenblas-dev libelpa-dev librandom123-dev libgtest-dev
  cmake g++ gfortran make pkg-config nlohmann-json3-dev python3-h5py python3-matplotlib python3-numpy
  python3-scipy zlib1g-dev
  # the rmtsweep Python package (python/rmtsweep): open_phase (xarray over h5netcdf), read_points (pandas)
  python3-xarray python3-h5netcdf python3-pandas
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
