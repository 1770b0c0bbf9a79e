# Finds the MPI-parallel build of HDF5 (Debian: libhdf5-openmpi-dev).
# Defines the imported target rmtsweep::hdf5: the C library and its high-level library (hdf5_hl: H5DS,
# the dimension scales of netCDF-4 that xarray and h5netcdf read).
find_path(HDF5Parallel_INCLUDE_DIR hdf5.h PATHS /usr/include/hdf5/openmpi NO_DEFAULT_PATH)
find_path(HDF5Parallel_INCLUDE_DIR hdf5.h PATH_SUFFIXES hdf5/openmpi)
find_library(HDF5Parallel_LIBRARY NAMES hdf5_openmpi hdf5 PATHS /usr/lib/x86_64-linux-gnu/hdf5/openmpi NO_DEFAULT_PATH)
find_library(HDF5Parallel_LIBRARY NAMES hdf5_openmpi hdf5)
find_library(HDF5Parallel_HL_LIBRARY NAMES hdf5_openmpi_hl hdf5_hl PATHS /usr/lib/x86_64-linux-gnu/hdf5/openmpi NO_DEFAULT_PATH)
find_library(HDF5Parallel_HL_LIBRARY NAMES hdf5_openmpi_hl hdf5_hl)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(HDF5Parallel REQUIRED_VARS HDF5Parallel_LIBRARY HDF5Parallel_HL_LIBRARY HDF5Parallel_INCLUDE_DIR)
if(HDF5Parallel_FOUND)
  file(STRINGS ${HDF5Parallel_INCLUDE_DIR}/H5pubconf.h _h5_parallel REGEX "define H5_HAVE_PARALLEL 1")
  if(NOT _h5_parallel)
    message(FATAL_ERROR "HDF5 at ${HDF5Parallel_INCLUDE_DIR} is not built with MPI (install libhdf5-openmpi-dev)")
  endif()
  if(NOT TARGET rmtsweep::hdf5)
    set(MPI_CXX_SKIP_MPICXX ON)
    find_package(MPI REQUIRED COMPONENTS CXX)
    add_library(rmtsweep::hdf5 INTERFACE IMPORTED)
    set_target_properties(rmtsweep::hdf5 PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${HDF5Parallel_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "${HDF5Parallel_HL_LIBRARY};${HDF5Parallel_LIBRARY};MPI::MPI_CXX")
  endif()
endif()
