# Build-time placement: runs the nunac compiler during a C/C++ build and exposes the generated
# placement header to a target.
#
#   list(APPEND CMAKE_MODULE_PATH <nunac>/cmake)
#   include(Nunac)
#   add_executable(app main.c)
#   nunac_add_placement(TARGET app PLAN plan.msccl TOPO mi300x [POLICY nap+nar]
#                       [SIZE 1MiB] [DEFINES ranks=8 ...] [HEADER_DIR var])
#
# The header is written to ${CMAKE_CURRENT_BINARY_DIR}/nunac/<TARGET>/placement.h (with
# placement.json beside it) and that folder is added to the target's include path, so the
# code says #include "placement.h". The compiler reruns when the plan changes.
#
# NUNAC_COMMAND (cache, a list) is how nunac is run: by default the ./nunac launcher of the
# checkout that holds this file; e.g. -DNUNAC_COMMAND="java;-jar;/opt/nunac/nunac.jar".
get_filename_component(_nunac_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(NUNAC_COMMAND "${_nunac_root}/nunac" CACHE STRING "command that runs nunac (a CMake list)")

function(nunac_add_placement)
  cmake_parse_arguments(NA "" "TARGET;PLAN;TOPO;POLICY;SIZE;HEADER_DIR" "DEFINES" ${ARGN})
  foreach(required TARGET PLAN TOPO)
    if(NOT NA_${required})
      message(FATAL_ERROR "nunac_add_placement: ${required} is required")
    endif()
  endforeach()
  if(NA_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "nunac_add_placement: unknown arguments: ${NA_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${NA_TARGET})
    message(FATAL_ERROR "nunac_add_placement: ${NA_TARGET} is not a target")
  endif()
  get_filename_component(plan "${NA_PLAN}" ABSOLUTE)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/nunac/${NA_TARGET}")
  set(args "${plan}" --topo "${NA_TOPO}" -o "${out}" --emit header,json)
  if(NA_POLICY)
    list(APPEND args --policy "${NA_POLICY}")
  endif()
  if(NA_SIZE)
    list(APPEND args --size "${NA_SIZE}")
  endif()
  foreach(d IN LISTS NA_DEFINES)
    list(APPEND args -D "${d}")
  endforeach()
  add_custom_command(
    OUTPUT "${out}/placement.h" "${out}/placement.json"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${out}"
    COMMAND ${NUNAC_COMMAND} ${args}
    DEPENDS "${plan}"
    COMMENT "nunac: placing ${NA_PLAN} on ${NA_TOPO} for ${NA_TARGET}"
    VERBATIM)
  add_custom_target(${NA_TARGET}_nunac_placement DEPENDS "${out}/placement.h")
  add_dependencies(${NA_TARGET} ${NA_TARGET}_nunac_placement)
  target_include_directories(${NA_TARGET} PRIVATE "${out}")
  if(NA_HEADER_DIR)
    set(${NA_HEADER_DIR} "${out}" PARENT_SCOPE)
  endif()
endfunction()
