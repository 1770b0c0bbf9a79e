# Finds ScaLAPACK (with BLACS inside) built for Open MPI, and OpenBLAS for BLAS/LAPACK.
# Defines the imported target rmtsweep::scalapack.
find_library(ScaLAPACK_LIBRARY NAMES scalapack-openmpi scalapack)
find_library(OpenBLAS_LIBRARY NAMES openblas PATH_SUFFIXES openblas-pthread)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(ScaLAPACK REQUIRED_VARS ScaLAPACK_LIBRARY OpenBLAS_LIBRARY)
if(ScaLAPACK_FOUND AND NOT TARGET rmtsweep::scalapack)
  set(MPI_CXX_SKIP_MPICXX ON)
  find_package(MPI REQUIRED COMPONENTS CXX)
  add_library(rmtsweep::scalapack INTERFACE IMPORTED)
  set_target_properties(rmtsweep::scalapack PROPERTIES
    INTERFACE_LINK_LIBRARIES "${ScaLAPACK_LIBRARY};${OpenBLAS_LIBRARY};gfortran;MPI::MPI_CXX")
endif()
