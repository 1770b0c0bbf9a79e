# Finds ELPA (Debian: libelpa-dev), the distributed symmetric eigensolver used for groups of
# several ranks. Defines the imported target rmtsweep::elpa; its headers are included as system
# headers (they are not clean under this project's warnings).
find_path(ELPA_INCLUDE_DIR elpa/elpa.h PATH_SUFFIXES elpa)
find_library(ELPA_LIBRARY NAMES elpa)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(ELPA REQUIRED_VARS ELPA_INCLUDE_DIR ELPA_LIBRARY)
if(ELPA_FOUND AND NOT TARGET rmtsweep::elpa)
  add_library(rmtsweep::elpa INTERFACE IMPORTED)
  set_target_properties(rmtsweep::elpa PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${ELPA_INCLUDE_DIR}"
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${ELPA_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${ELPA_LIBRARY}")
endif()
