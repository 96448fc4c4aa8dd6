# The install test, run by CTest as `cmake -D... -P check_install.cmake`:
#   1. cmake --install <BUILD_DIR> into a fresh prefix under WORK_DIR;
#   2. the installed CLI starts (its RPATH finds CUDA and OpenBLAS), if one was installed;
#   3. the consumer project in this folder configures against that prefix alone, builds and runs.
# Inputs (-D): BUILD_DIR, WORK_DIR, CONFIG (may be empty), GENERATOR, MAKE_PROGRAM,
# CXX_COMPILER, BUILD_TYPE, CUDAToolkit_ROOT, TRIMM_OPENBLAS_ROOT (may be empty), EXPECT_CLI.
cmake_minimum_required(VERSION 3.24)

foreach(var BUILD_DIR WORK_DIR GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "check_install.cmake: -D${var}=... is required")
  endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/consumer-build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# Runs one step; on failure prints its output and stops the test.
function(step what)
  message(STATUS "install test: ${what}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: ${what} failed (${rc}):\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(config_args)
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()

step("cmake --install into ${prefix}"
     "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}" ${config_args})

file(GLOB_RECURSE config_file "${prefix}/*/trimmConfig.cmake")
foreach(f "${prefix}/include/trimm/trimm.hpp" "${config_file}")
  if(NOT EXISTS "${f}")
    message(FATAL_ERROR "install test: missing from the install: ${f}\n"
                        "(trimmConfig.cmake found: '${config_file}')")
  endif()
endforeach()

if(EXPECT_CLI)
  if(NOT EXISTS "${prefix}/bin/trimm")
    message(FATAL_ERROR "install test: the CLI was not installed as ${prefix}/bin/trimm")
  endif()
  step("installed trimm CLI runs" "${prefix}/bin/trimm" help)
endif()

set(configure_args
  -S "${CMAKE_CURRENT_LIST_DIR}" -B "${consumer_build}" -G "${GENERATOR}"
  "-DCMAKE_PREFIX_PATH=${prefix}"
  "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
  # Only the prefix may provide trimm: no package registries, no system copy.
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
  -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
foreach(var MAKE_PROGRAM BUILD_TYPE)
  if(NOT "${${var}}" STREQUAL "")
    list(APPEND configure_args "-DCMAKE_${var}=${${var}}")
  endif()
endforeach()
foreach(var CUDAToolkit_ROOT TRIMM_OPENBLAS_ROOT)
  if(NOT "${${var}}" STREQUAL "")
    list(APPEND configure_args "-D${var}=${${var}}")
  endif()
endforeach()
step("configure the consumer" "${CMAKE_COMMAND}" ${configure_args})

# find_package must have taken trimm from the fresh prefix, not from anywhere else.
file(STRINGS "${consumer_build}/CMakeCache.txt" trimm_dir REGEX "^trimm_DIR:")
string(REGEX REPLACE "^trimm_DIR:[A-Z]+=" "" trimm_dir "${trimm_dir}")
file(REAL_PATH "${prefix}" real_prefix)
file(REAL_PATH "${trimm_dir}" real_trimm_dir)
string(FIND "${real_trimm_dir}/" "${real_prefix}/" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "install test: the consumer found trimm in '${trimm_dir}', "
                      "not under the test prefix '${prefix}'")
endif()

step("build the consumer" "${CMAKE_COMMAND}" --build "${consumer_build}" ${config_args})

set(exe "${consumer_build}/consumer")
if(CONFIG AND NOT EXISTS "${exe}")
  set(exe "${consumer_build}/${CONFIG}/consumer")
endif()
step("run the consumer" "${exe}")
message(STATUS "install test: consumer output:\n${step_output}")
message(STATUS "install test: passed (trimm_DIR = ${trimm_dir})")
