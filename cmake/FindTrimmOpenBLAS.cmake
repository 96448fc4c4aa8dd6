# Locates OpenBLAS's CBLAS (Debian: libopenblas-dev) and defines the imported target
# trimm::openblas. TRIMM_OPENBLAS_ROOT points at an unpacked copy where it is not installed.
find_path(TRIMM_CBLAS_INCLUDE_DIR cblas.h
          HINTS ${TRIMM_OPENBLAS_ROOT}/include
          PATH_SUFFIXES openblas-pthread openblas x86_64-linux-gnu/openblas-pthread)
find_library(TRIMM_OPENBLAS_LIBRARY NAMES openblas
             HINTS ${TRIMM_OPENBLAS_ROOT}/lib
             PATH_SUFFIXES openblas-pthread x86_64-linux-gnu/openblas-pthread)
if(NOT TRIMM_CBLAS_INCLUDE_DIR OR NOT TRIMM_OPENBLAS_LIBRARY)
  message(FATAL_ERROR "OpenBLAS not found: install libopenblas-dev (apt-get install "
                      "libopenblas-dev) or set TRIMM_OPENBLAS_ROOT")
endif()
message(STATUS "OpenBLAS: ${TRIMM_OPENBLAS_LIBRARY} (cblas.h in ${TRIMM_CBLAS_INCLUDE_DIR})")
if(NOT TARGET trimm::openblas)
  add_library(trimm::openblas UNKNOWN IMPORTED)
  set_target_properties(trimm::openblas PROPERTIES
    IMPORTED_LOCATION "${TRIMM_OPENBLAS_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${TRIMM_CBLAS_INCLUDE_DIR}")
endif()
