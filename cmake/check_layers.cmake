# Fails when a header includes one from a layer above its own: the import drawing of
# docs/layout.md, checked. Run as: cmake -DSOURCE_DIR=<repo> -P cmake/check_layers.cmake
#
# Layers, bottom first; each may include its own folder and the folders listed for it.
#   core           the planner and checks, no Kokkos           core/strided/core
#   base           Kokkos-aware basics                          backends/strided/base
#   common         primitives for any space                     backends/strided/backends/common
#   host           host-only SIMD and per-thread stages         .../backends/host
#   bodies         per-tile loop bodies (both algorithms)       .../backends/bodies
#   tiles, team    the tile algorithm, the team algorithm       .../backends/tiles, team
#   kokkoskernels  GEMM; mpi: datatypes and reduction ops       .../backends/kokkoskernels, mpi
#   dispatch       route() and the runs of each family          .../backends/dispatch
#   public         the API                                      include/strided
cmake_minimum_required(VERSION 3.16)
if(NOT SOURCE_DIR)
  get_filename_component(SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()

set(below_core "")
set(below_base core)
set(below_common base core)
set(below_host "")
set(below_bodies common host base core)
set(below_tiles bodies common host base core)
set(below_team bodies common host base core)
set(below_kokkoskernels base core)
set(below_mpi core)
set(below_dispatch tiles team kokkoskernels bodies common host base core)
set(below_public dispatch mpi base core)

# The layer of a path relative to an include root ("strided/...").
function(layer_of path out)
  if(path MATCHES "^strided/core/")
    set(${out} core PARENT_SCOPE)
  elseif(path MATCHES "^strided/base/")
    set(${out} base PARENT_SCOPE)
  elseif(path MATCHES "^strided/backends/([a-z_]+)/")
    set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
  elseif(path MATCHES "^strided/[a-z_]+\\.hpp$")
    set(${out} public PARENT_SCOPE)
  else()
    set(${out} unknown PARENT_SCOPE)
  endif()
endfunction()

file(GLOB_RECURSE headers RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/core/strided/*.hpp"
     "${SOURCE_DIR}/backends/strided/*.hpp" "${SOURCE_DIR}/include/strided/*.hpp")
set(violations 0)
set(checked 0)
foreach(header IN LISTS headers)
  string(REGEX REPLACE "^(core|backends|include)/" "" own "${header}")
  layer_of("${own}" layer)
  if(NOT DEFINED below_${layer})
    message(SEND_ERROR "${header}: in no known layer (add its folder to check_layers.cmake)")
    math(EXPR violations "${violations} + 1")
    continue()
  endif()
  file(STRINGS "${SOURCE_DIR}/${header}" lines REGEX "^#include \"strided/")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" included "${line}")
    layer_of("${included}" target)
    math(EXPR checked "${checked} + 1")
    if(target STREQUAL layer OR target IN_LIST below_${layer})
      continue()
    endif()
    message(SEND_ERROR "${header} (${layer}) includes ${included} (${target}): not below it")
    math(EXPR violations "${violations} + 1")
  endforeach()
endforeach()
list(LENGTH headers count)
if(violations GREATER 0)
  message(FATAL_ERROR "check_layers: ${violations} include(s) run back up")
endif()
message(STATUS "check_layers: ${count} headers, ${checked} includes, all downward")
