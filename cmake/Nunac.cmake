# Build-time placement: runs the nunac compiler during a C/C++ build and exposes the generated
# placement header to a target.
#
#   list(APPEND CMAKE_MODULE_PATH <nunac>/cmake)
#   include(Nunac)
#   add_executable(app main.c)
#   nunac_add_placement(TARGET app PLAN plan.msccl TOPO mi300x|spec.json
#                       [PREFIX name] [POLICY nap+nar] [NAR N|auto|off] [SIZE 1MiB]
#                       [TOPO_OVERRIDE measured.json] [DEFINES ranks=8 ...]
#                       [EMIT report svg ...] [DEPENDS file ...] [HEADER_DIR var] [COMPACT])
#
# Without PREFIX the header is ${CMAKE_CURRENT_BINARY_DIR}/nunac/<TARGET>/placement.h (with
# placement.json beside it), its symbols are nunac_* and NUNAC_*, and the code says
# #include "placement.h". A target may have several placements: give each its own PREFIX, a C
# identifier; its header is nunac/<TARGET>/<PREFIX>/placement.h with symbols <prefix>_* and
# <PREFIX>_*, included as #include "<PREFIX>/placement.h", so several headers share one
# translation unit. nunac/<TARGET> is added to the target's include path either way.
#
# nunac reruns when any of its inputs changes: the plan, the topology spec (a spec file, or the
# checkout's topology-specs/<TOPO>.json for a bundled name), the override file, the files named
# by DEPENDS, and nunac itself (NUNAC_DEPENDS).
#
# EMIT adds outputs to placement.h and placement.json: json, header, report (report.txt), svg
# (floorplan.svg), msccl-xml (plan.xml), launch (launch.txt), placed-xml (placed.xml), placed-json
# (placed.json, MSCCL++ plans). HEADER_DIR names a variable that
# receives the folder of placement.h. COMPACT writes placement.h and placement.json in the
# compact form (nunac --compact: one-CU masks as bit indices, page maps as runs, with
# nunac_tb_mask_words() and nunac_page_stack() to read them; docs/placement.md).
#
# NUNAC_COMMAND (cache, a list) is how nunac is run: by default the ./nunac launcher of the
# checkout that holds this file; e.g. -DNUNAC_COMMAND="java;-jar;/opt/nunac/nunac.jar".
# NUNAC_DEPENDS (cache, a list) names the files that are nunac, whose change reruns every
# placement: when empty, the existing files NUNAC_COMMAND names (a jar, the launcher, jars of a
# class path) and, for the checkout's launcher, the jar it has built (compiler/main/target/nunac.jar,
# once it exists when CMake configures).
cmake_policy(PUSH)
cmake_policy(SET CMP0057 NEW) # if(... IN_LIST ...) in projects that ask for an older CMake
get_filename_component(_nunac_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(NUNAC_COMMAND "${_nunac_root}/nunac" CACHE STRING "command that runs nunac (a CMake list)")
set(NUNAC_DEPENDS "" CACHE STRING "files whose change reruns every placement (a CMake list; empty: those of NUNAC_COMMAND)")

# Output name -> file, as nunac --emit and --only write them.
set(_nunac_emit_ids json header report svg msccl-xml launch placed-xml placed-json)
set(_nunac_emit_file_json placement.json)
set(_nunac_emit_file_header placement.h)
set(_nunac_emit_file_report report.txt)
set(_nunac_emit_file_svg floorplan.svg)
set(_nunac_emit_file_msccl-xml plan.xml)
set(_nunac_emit_file_launch launch.txt)
set(_nunac_emit_file_placed-xml placed.xml)
set(_nunac_emit_file_placed-json placed.json)

# The files that are nunac: NUNAC_DEPENDS, else those NUNAC_COMMAND names.
function(_nunac_tool_files out)
  set(files "")
  if(NUNAC_DEPENDS)
    foreach(f IN LISTS NUNAC_DEPENDS)
      get_filename_component(f "${f}" ABSOLUTE)
      list(APPEND files "${f}")
    endforeach()
  else()
    foreach(word IN LISTS NUNAC_COMMAND)
      string(REPLACE ":" ";" parts "${word}") # a class path
      foreach(f IN LISTS parts)
        if(IS_ABSOLUTE "${f}" AND EXISTS "${f}" AND NOT IS_DIRECTORY "${f}")
          list(APPEND files "${f}")
        endif()
      endforeach()
    endforeach()
    if(NUNAC_COMMAND STREQUAL "${_nunac_root}/nunac" AND EXISTS "${_nunac_root}/compiler/main/target/nunac.jar")
      list(APPEND files "${_nunac_root}/compiler/main/target/nunac.jar")
    endif()
  endif()
  list(REMOVE_DUPLICATES files)
  set(${out} "${files}" PARENT_SCOPE)
endfunction()

function(nunac_add_placement)
  cmake_parse_arguments(NA "COMPACT" "TARGET;PLAN;TOPO;TOPO_OVERRIDE;PREFIX;POLICY;NAR;SIZE;HEADER_DIR" "DEFINES;EMIT;DEPENDS" ${ARGN})
  foreach(required TARGET PLAN TOPO)
    if(NOT NA_${required})
      message(FATAL_ERROR "nunac_add_placement: ${required} is required")
    endif()
  endforeach()
  if(NA_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "nunac_add_placement: unknown arguments: ${NA_UNPARSED_ARGUMENTS}")
  endif()
  if(NA_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "nunac_add_placement: no value after ${NA_KEYWORDS_MISSING_VALUES}")
  endif()
  if(NOT TARGET ${NA_TARGET})
    message(FATAL_ERROR "nunac_add_placement: ${NA_TARGET} is not a target")
  endif()
  if(DEFINED NA_PREFIX AND NOT NA_PREFIX MATCHES "^[A-Za-z][A-Za-z0-9_]*$")
    message(FATAL_ERROR "nunac_add_placement: PREFIX must be a C identifier that starts with a letter, got '${NA_PREFIX}'")
  endif()

  # One placement per prefix and target; the one without a prefix keeps the names of old.
  set(key "${NA_PREFIX}")
  if(key STREQUAL "")
    set(key "(none)")
  endif()
  get_property(placed TARGET ${NA_TARGET} PROPERTY NUNAC_PLACEMENTS)
  if(key IN_LIST placed)
    if(DEFINED NA_PREFIX)
      message(FATAL_ERROR "nunac_add_placement: ${NA_TARGET} already has a placement with PREFIX ${NA_PREFIX}")
    else()
      message(FATAL_ERROR "nunac_add_placement: ${NA_TARGET} already has a placement without PREFIX; "
              "give each placement of a target its own PREFIX")
    endif()
  endif()
  set_property(TARGET ${NA_TARGET} APPEND PROPERTY NUNAC_PLACEMENTS "${key}")

  set(include_dir "${CMAKE_CURRENT_BINARY_DIR}/nunac/${NA_TARGET}")
  if(DEFINED NA_PREFIX)
    set(out "${include_dir}/${NA_PREFIX}")
    set(custom_target ${NA_TARGET}_nunac_${NA_PREFIX})
  else()
    set(out "${include_dir}")
    set(custom_target ${NA_TARGET}_nunac_placement)
  endif()

  get_filename_component(plan "${NA_PLAN}" ABSOLUTE)
  set(depends "${plan}")
  # A TOPO that names a file is passed by absolute path (nunac runs in the build folder) and
  # is an input; a bundled name depends on the checkout's spec of that name where there is one.
  get_filename_component(topo_path "${NA_TOPO}" ABSOLUTE)
  if(EXISTS "${topo_path}" AND NOT IS_DIRECTORY "${topo_path}")
    set(topo "${topo_path}")
    list(APPEND depends "${topo_path}")
  else()
    set(topo "${NA_TOPO}")
    if(EXISTS "${_nunac_root}/topology-specs/${NA_TOPO}.json")
      list(APPEND depends "${_nunac_root}/topology-specs/${NA_TOPO}.json")
    endif()
  endif()

  set(emit json header)
  foreach(e IN LISTS NA_EMIT)
    string(REPLACE "," ";" es "${e}")
    list(APPEND emit ${es})
  endforeach()
  list(REMOVE_DUPLICATES emit)
  set(outputs "")
  foreach(e IN LISTS emit)
    if(NOT e IN_LIST _nunac_emit_ids)
      string(REPLACE ";" ", " known "${_nunac_emit_ids}")
      message(FATAL_ERROR "nunac_add_placement: EMIT: unknown output '${e}' (known: ${known})")
    endif()
    list(APPEND outputs "${out}/${_nunac_emit_file_${e}}")
  endforeach()
  string(REPLACE ";" "," emit_arg "${emit}")

  # --only: exactly the outputs declared below, so that none is written that the build does not know of.
  set(args "${plan}" --topo "${topo}" -o "${out}" --only "${emit_arg}")
  if(DEFINED NA_TOPO_OVERRIDE)
    get_filename_component(override "${NA_TOPO_OVERRIDE}" ABSOLUTE)
    list(APPEND args --topo-override "${override}")
    list(APPEND depends "${override}")
  endif()
  if(DEFINED NA_PREFIX)
    list(APPEND args --header-prefix "${NA_PREFIX}")
  endif()
  if(NA_COMPACT)
    list(APPEND args --compact)
  endif()
  if(DEFINED NA_POLICY)
    list(APPEND args --policy "${NA_POLICY}")
  endif()
  if(DEFINED NA_NAR)
    list(APPEND args --nar "${NA_NAR}")
  endif()
  if(DEFINED NA_SIZE)
    list(APPEND args --size "${NA_SIZE}")
  endif()
  foreach(d IN LISTS NA_DEFINES)
    list(APPEND args -D "${d}")
  endforeach()
  foreach(f IN LISTS NA_DEPENDS)
    get_filename_component(f "${f}" ABSOLUTE)
    list(APPEND depends "${f}")
  endforeach()
  _nunac_tool_files(tool)
  list(APPEND depends ${tool})

  set(what "${NA_TARGET}")
  if(DEFINED NA_PREFIX)
    set(what "${NA_TARGET} (${NA_PREFIX})")
  endif()
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -E make_directory "${out}"
    COMMAND ${NUNAC_COMMAND} ${args}
    DEPENDS ${depends}
    COMMENT "nunac: placing ${NA_PLAN} on ${NA_TOPO} for ${what}"
    VERBATIM)
  add_custom_target(${custom_target} DEPENDS ${outputs})
  add_dependencies(${NA_TARGET} ${custom_target})
  target_include_directories(${NA_TARGET} PRIVATE "${include_dir}")
  if(NA_HEADER_DIR)
    set(${NA_HEADER_DIR} "${out}" PARENT_SCOPE)
  endif()
endfunction()
cmake_policy(POP)
