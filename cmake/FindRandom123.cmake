# Finds the header-only Random123 library (Debian: librandom123-dev).
# Defines the imported target rmtsweep::random123.
find_path(Random123_INCLUDE_DIR Random123/philox.h)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Random123 REQUIRED_VARS Random123_INCLUDE_DIR)
if(Random123_FOUND AND NOT TARGET rmtsweep::random123)
  add_library(rmtsweep::random123 INTERFACE IMPORTED)
  set_target_properties(rmtsweep::random123 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${Random123_INCLUDE_DIR}")
endif()
