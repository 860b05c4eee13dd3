# CTest fixture: 2 KiB PoRep test parameters for the engine tests, made once per build tree.
#   cmake -DCUZK=<cuzk binary> -DOUT=<dir> -P make_params.cmake
if(EXISTS "${OUT}/porep_2KiB.params" AND EXISTS "${OUT}/porep_2KiB.vk")
  message(STATUS "engine params: ${OUT} already has porep_2KiB.params/.vk")
  return()
endif()
execute_process(COMMAND "${CUZK}" setup --circuit porep:2KiB --out "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cuzk setup --circuit porep:2KiB failed (${rc})")
endif()
