# Tests of the field layer (src/ff). Included from src/ff/CMakeLists.txt when CUZK_BUILD_TESTS is
# on; sources are named relative to this file so the include works from any directory.
#
#   ff_field_gmp_test  — Fp and Fr against GMP (needs libgmp-dev: gmp.h, gmpxx.h, libgmp(xx))
#   ff_field_laws_test — algebraic laws of Fp, Fr, Fp2, Fp6, Fp12

# GMP and its C++ interface, as the imported target cuzk::gmp (shared with other folders' tests).
if(NOT TARGET cuzk::gmp)
  find_path(CUZK_GMP_INCLUDE_DIR NAMES gmp.h DOC "Directory holding gmp.h")
  find_path(CUZK_GMPXX_INCLUDE_DIR NAMES gmpxx.h DOC "Directory holding gmpxx.h")
  find_library(CUZK_GMP_LIBRARY NAMES gmp DOC "The GMP library")
  find_library(CUZK_GMPXX_LIBRARY NAMES gmpxx DOC "GMP's C++ library")
  set(_cuzk_gmp_missing "")
  foreach(_var CUZK_GMP_INCLUDE_DIR CUZK_GMPXX_INCLUDE_DIR CUZK_GMP_LIBRARY CUZK_GMPXX_LIBRARY)
    if(NOT ${_var})
      list(APPEND _cuzk_gmp_missing ${_var})
    endif()
  endforeach()
  if(_cuzk_gmp_missing)
    message(FATAL_ERROR
      "cuzk: GMP is required by the field tests (src/ff/field_gmp_test.cpp) but was not found "
      "(missing: ${_cuzk_gmp_missing}). Install libgmp-dev (gmp.h, gmpxx.h, libgmp, libgmpxx), "
      "point CMake at it with -DCUZK_GMP_INCLUDE_DIR=... -DCUZK_GMP_LIBRARY=... (and the GMPXX "
      "counterparts), or configure with -DCUZK_BUILD_TESTS=OFF.")
  endif()
  add_library(cuzk::gmp INTERFACE IMPORTED GLOBAL)
  set_target_properties(cuzk::gmp PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${CUZK_GMPXX_INCLUDE_DIR};${CUZK_GMP_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${CUZK_GMPXX_LIBRARY};${CUZK_GMP_LIBRARY}")
endif()

cuzk_add_test(ff_field_gmp_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/field_gmp_test.cpp
  DEPS cuzk_ff cuzk::gmp
  LABELS ff)
cuzk_add_test(ff_field_laws_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/field_laws_test.cpp
  DEPS cuzk_ff
  LABELS ff)
