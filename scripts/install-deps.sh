#!/usr/bin/env bash
# Installs rmtsweep's build and run dependencies from Debian 12's packages, those that are missing
# only (dpkg-query), and only where it can: as root, or with sudo that needs no password. Elsewhere
# (not root, RMTSWEEP_SKIP_DEPS=1, a system without dpkg such as a cluster with modules) it installs
# nothing, prints what a Debian machine would need, and exits 0: CMake then says what it cannot find
# (docs/install.md, "On a cluster, with modules and without root"). Safe to run again.
set -euo pipefail
packages=(
  openmpi-bin libopenmpi-dev libscalapack-openmpi-dev libhdf5-openmpi-dev hdf5-tools
  libboost-dev libboost-program-options-dev libopenblas-dev libelpa-dev librandom123-dev libgtest-dev
  cmake g++ gfortran make pkg-config nlohmann-json3-dev python3-h5py python3-matplotlib python3-numpy
  python3-scipy zlib1g-dev
  # Spectra on Eigen: the top eigenpairs of the sparse token Gram (the finite-T theory at any size)
  libspectra-dev libeigen3-dev
  # the rmtsweep Python package (python/rmtsweep): open_phase (xarray over h5netcdf), read_points (pandas)
  python3-xarray python3-h5netcdf python3-pandas
  # its compiled theory module (pybind11, built by CMake), its pip install into a venv (docs/python.md),
  # the tutorial notebook's run in a Jupyter kernel, ncdump of the file (tests/python)
  python3-dev python3-pybind11 python3-venv python3-setuptools python3-nbclient python3-nbformat
  python3-ipykernel netcdf-bin
  # the style test: every C++ file as .clang-format leaves it (scripts/check-format.sh; clang-format 14)
  clang-format
)
if [ "${RMTSWEEP_SKIP_DEPS:-0}" = 1 ]; then
  echo "install-deps: RMTSWEEP_SKIP_DEPS=1: installing nothing (Debian 12 would need: ${packages[*]})" >&2
  exit 0
fi
if ! command -v dpkg-query >/dev/null; then
  echo "install-deps: no dpkg here: installing nothing; load or install the equivalents of ${packages[*]}" \
       "(docs/install.md)" >&2
  exit 0
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo_cmd=(sudo)
  else
    echo "install-deps: not root (and no sudo without a password): not installing the missing ${missing[*]};" \
         "as root: apt-get install ${missing[*]}" >&2
    exit 0
  fi
fi
echo "install-deps: installing ${missing[*]}" >&2
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
