# Runs the determinism probe on Serial and on the host-parallel space at several thread counts
# (host and device algorithms, and Kokkos' default execution space with the data in its memory:
# the GPU on a device build), each in its own process, and fails unless every run prints the
# same bits.
# Inputs: -DPROBE=<path> -DTHREADS="1;2;3;4;8" [-DREFERENCE_PROBE=<path>] [-DDEVICE_OWN_BITS=ON]
#         [-DDEVICE_MAX_THREADS=N]
# With DEVICE_MAX_THREADS, the device algorithm runs only at counts up to N (Threads: its workers
# spin in team barriers once they outnumber the cores).
# With REFERENCE_PROBE, the reference is that other build's probe on Serial (the contraction leg:
# a build with other compiler flags must print the bits of the default build).
# With DEVICE_OWN_BITS, a default space that is a device (not Serial, OpenMP or Threads) is held to
# its own first run instead (the tensor contraction: a GPU's GEMM gives the same bits run to run,
# not the host's; docs/contraction.md).
set(ENV{OMP_PROC_BIND} false)
if(NOT REFERENCE_PROBE)
  set(REFERENCE_PROBE ${PROBE})
endif()
execute_process(COMMAND ${REFERENCE_PROBE} serial --threads=1 OUTPUT_VARIABLE reference
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "probe on Serial failed (${rc})")
endif()
string(REGEX REPLACE "space [^\n]*\n" "" reference "${reference}")
string(LENGTH "${reference}" length)
if(length LESS 500)
  message(FATAL_ERROR "the probe printed too little:\n${reference}")
endif()
foreach(algorithm IN ITEMS parallel device default)
  foreach(n IN LISTS THREADS)
    if(DEVICE_MAX_THREADS AND algorithm STREQUAL "device" AND n GREATER DEVICE_MAX_THREADS)
      message(STATUS "device algorithm at ${n} threads: not run (more than ${DEVICE_MAX_THREADS})")
      continue()
    endif()
    set(ENV{OMP_NUM_THREADS} ${n})
    execute_process(COMMAND ${PROBE} ${algorithm} --threads=${n} OUTPUT_VARIABLE out
                    RESULT_VARIABLE rc)
    string(REGEX MATCH "space [^\n]*" space "${out}")
    string(REGEX REPLACE "space [^\n]*\n" "" out "${out}")
    set(expected "${reference}")
    set(against "${REFERENCE_PROBE} on Serial")
    if(DEVICE_OWN_BITS AND algorithm STREQUAL "default" AND
       NOT space MATCHES "^space (Serial|OpenMP|Threads)$")
      if(NOT DEFINED device_reference)
        set(device_reference "${out}")
      endif()
      set(expected "${device_reference}")
      set(against "the first run on ${space}")
    endif()
    if(NOT rc EQUAL 0 OR NOT out STREQUAL expected)
      message(FATAL_ERROR "${space} (${algorithm} algorithm) at ${n} threads differs from the reference (${against}):\n--- reference\n${expected}--- ${n} threads\n${out}")
    endif()
    message(STATUS "${space} at ${n} threads, ${algorithm} algorithm: bits identical to ${against}")
  endforeach()
endforeach()
