# cmake -P driver for the strided_install_consumer test. Every step must succeed:
#   1. cmake --install STRIDED_BUILD_DIR --prefix WORK_DIR/prefix
#   2. configure CONSUMER_SOURCE_DIR with CMAKE_PREFIX_PATH=<prefix>;<Kokkos prefix>
#   3. check that Strided came from the scratch prefix and Kokkos from KOKKOS_DIR
#   4. build the consumer, 5. run it with OMP_PROC_BIND=false (and the contract and MPI examples
#      when WITH_CONTRACT, WITH_MPI)
cmake_minimum_required(VERSION 3.16)

foreach(var STRIDED_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR KOKKOS_DIR GENERATOR CXX_COMPILER)
  if("${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer_test.cmake: -D${var}=... is required")
  endif()
endforeach()

# Each step calls execute_process itself: a wrapper forwarding ARGN would split the
# CMAKE_PREFIX_PATH list into separate arguments.
function(check_step name rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "strided_install_consumer: ${name} failed (${rc})")
  endif()
endfunction()

set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${prefix}" "${consumer_build}")

# The Kokkos prefix is Kokkos_DIR less its <lib or share>/cmake/Kokkos tail; if Kokkos_DIR has
# another shape, hand the consumer Kokkos_DIR itself.
string(REGEX REPLACE "/(lib[^/]*(/[^/]+)?|share)/cmake/Kokkos/?$" "" kokkos_prefix "${KOKKOS_DIR}")
if(kokkos_prefix STREQUAL KOKKOS_DIR)
  set(kokkos_args "-DKokkos_DIR=${KOKKOS_DIR}")
  set(prefix_path "${prefix}")
else()
  set(kokkos_args "")
  set(prefix_path "${prefix};${kokkos_prefix}")
endif()

set(config_args "")
set(build_type_args "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
if(NOT "${CONFIG}" STREQUAL "")
  set(config_args --config "${CONFIG}")
  set(build_type_args "")
endif()
set(generator_args -G "${GENERATOR}")
if(NOT "${GENERATOR_PLATFORM}" STREQUAL "")
  list(APPEND generator_args -A "${GENERATOR_PLATFORM}")
endif()
if(NOT "${GENERATOR_TOOLSET}" STREQUAL "")
  list(APPEND generator_args -T "${GENERATOR_TOOLSET}")
endif()
if(NOT "${MAKE_PROGRAM}" STREQUAL "")
  list(APPEND generator_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" --install "${STRIDED_BUILD_DIR}" --prefix "${prefix}"
                        ${config_args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message("${out}")
endif()
check_step("cmake --install ${STRIDED_BUILD_DIR} --prefix ${prefix}" "${rc}")
if(NOT EXISTS "${prefix}/include/strided/strided.hpp" OR
   NOT EXISTS "${prefix}/include/strided/version.hpp")
  message(FATAL_ERROR "strided_install_consumer: headers missing under ${prefix}/include/strided")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${consumer_build}"
                        ${generator_args} "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
                        "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" ${build_type_args}
                        "-DCMAKE_PREFIX_PATH=${prefix_path}" ${kokkos_args}
                        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF "-DSTRIDED_CONSUMER_MPI=${WITH_MPI}"
                        "-DSTRIDED_CONSUMER_CONTRACT=${WITH_CONTRACT}"
                RESULT_VARIABLE rc COMMAND_ECHO STDOUT)
check_step("configuring the consumer" "${rc}")

# The consumer must have found the installed Strided, not the build tree or another copy.
load_cache("${consumer_build}" READ_WITH_PREFIX consumer_ Strided_DIR Kokkos_DIR)
get_filename_component(found_strided "${consumer_Strided_DIR}" REALPATH)
get_filename_component(real_prefix "${prefix}" REALPATH)
string(FIND "${found_strided}/" "${real_prefix}/" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "strided_install_consumer: Strided_DIR=${consumer_Strided_DIR} "
                      "is not under the install prefix ${prefix}")
endif()
get_filename_component(found_kokkos "${consumer_Kokkos_DIR}" REALPATH)
get_filename_component(expected_kokkos "${KOKKOS_DIR}" REALPATH)
if(NOT found_kokkos STREQUAL expected_kokkos)
  message(FATAL_ERROR "strided_install_consumer: consumer found Kokkos in ${consumer_Kokkos_DIR}, "
                      "the Strided build used ${KOKKOS_DIR}")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" --build "${consumer_build}" ${config_args}
                RESULT_VARIABLE rc COMMAND_ECHO STDOUT)
check_step("building the consumer" "${rc}")

set(exe "${consumer_build}/strided_consumer${EXE_SUFFIX}")
if(NOT "${CONFIG}" STREQUAL "" AND EXISTS "${consumer_build}/${CONFIG}/strided_consumer${EXE_SUFFIX}")
  set(exe "${consumer_build}/${CONFIG}/strided_consumer${EXE_SUFFIX}")
endif()
set(ENV{OMP_PROC_BIND} false)
execute_process(COMMAND "${exe}" RESULT_VARIABLE rc COMMAND_ECHO STDOUT)
check_step("running ${exe}" "${rc}")

# The contract component's example (Kokkos Kernels found through the installed package).
if(WITH_CONTRACT)
  string(REPLACE "strided_consumer${EXE_SUFFIX}" "strided_consumer_contract${EXE_SUFFIX}"
                 contract_exe "${exe}")
  execute_process(COMMAND "${contract_exe}" RESULT_VARIABLE rc COMMAND_ECHO STDOUT)
  check_step("running ${contract_exe}" "${rc}")
endif()

# The MPI example at 2 ranks (Open MPI: more ranks than cores, and root, need these variables).
if(WITH_MPI)
  string(REPLACE "strided_consumer${EXE_SUFFIX}" "strided_consumer_mpi${EXE_SUFFIX}" mpi_exe "${exe}")
  set(ENV{OMPI_MCA_rmaps_base_oversubscribe} 1)
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
  set(ENV{OMP_NUM_THREADS} 1)
  execute_process(COMMAND "${MPIEXEC}" -n 2 "${mpi_exe}" RESULT_VARIABLE rc COMMAND_ECHO STDOUT)
  check_step("running ${mpi_exe} on 2 ranks" "${rc}")
endif()
