# Runs the determinism probe on Serial and on the host-parallel space at several thread counts
# (host and device algorithms, and Kokkos' default execution space with the data in its memory:
# the GPU on a device build), each in its own process, and fails unless every run prints the
# same bits.
# Inputs: -DPROBE=<path> -DTHREADS="1;2;3;4;8" [-DREFERENCE_PROBE=<path>]
# With REFERENCE_PROBE, the reference is that other build's probe on Serial (the contraction leg:
# a build with other compiler flags must print the bits of the default build).
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
    set(ENV{OMP_NUM_THREADS} ${n})
    execute_process(COMMAND ${PROBE} ${algorithm} --threads=${n} OUTPUT_VARIABLE out
                    RESULT_VARIABLE rc)
    string(REGEX MATCH "space [^\n]*" space "${out}")
    string(REGEX REPLACE "space [^\n]*\n" "" out "${out}")
    if(NOT rc EQUAL 0 OR NOT out STREQUAL reference)
      message(FATAL_ERROR "${space} (${algorithm} algorithm) at ${n} threads differs from the reference (${REFERENCE_PROBE} on Serial):\n--- reference\n${reference}--- ${n} threads\n${out}")
    endif()
    message(STATUS "${space} at ${n} threads, ${algorithm} algorithm: bits identical to the reference")
  endforeach()
endforeach()
