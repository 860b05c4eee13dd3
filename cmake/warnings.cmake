# Compiler flags shared by every cuzk target.
add_library(cuzk_options INTERFACE)
target_compile_options(cuzk_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${CUZK_WERROR}>>:-Werror>
  # GCC's -Wmaybe-uninitialized misfires on std::optional<Field> at -O3 (GCC 13 on the GPU
  # machine flags poseidon/circuit.cpp, GCC 12 does not): kept as a warning, not an error.
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-error=maybe-uninitialized>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${CUZK_NATIVE}>>:-march=native>
  # bmi2/adx are used by the x86-64 fast field path when present at compile time.
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<NOT:$<BOOL:${CUZK_NATIVE}>>>:-mbmi2 -madx>
  # Host code inside .cu files must see the same field product as .cpp files (inline functions
  # compiled with different ISA flags would be merged arbitrarily by the linker).
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<NOT:$<BOOL:${CUZK_NATIVE}>>>:-Xcompiler=-mbmi2,-madx>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${CUZK_WERROR}>>:-Werror=all-warnings>)
target_include_directories(cuzk_options INTERFACE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(cuzk_options INTERFACE Threads::Threads)

# cuzk_add_library(NAME SOURCES... DEPS ...)  — one static library per folder.
function(cuzk_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_link_libraries(${name} PUBLIC cuzk_options ${ARG_DEPS})
endfunction()

# cuzk_add_test(NAME SOURCES... DEPS ... [LABELS ...]) — a GoogleTest binary registered with CTest.
function(cuzk_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE cuzk_options ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "${ARG_LABELS}")
endfunction()
