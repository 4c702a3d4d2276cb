# CTest cmake_renamed_options: a build configured with the options' old names (cmake/renamed_options.cmake)
# still gets their values, under the new names, with one deprecation warning per name; each new
# name is an option() of the top CMakeLists.txt. A project of a few lines configures the table, so
# the test takes about a second instead of a whole configure.
#   cmake -DSOURCE_DIR=<repository> -DWORK_DIR=<scratch folder> -P renamed_options_test.cmake
include(${SOURCE_DIR}/cmake/renamed_options.cmake)
file(READ ${SOURCE_DIR}/CMakeLists.txt top)
if(NOT top MATCHES "heat_take_renamed_options\\(\\)")
  message(FATAL_ERROR "CMakeLists.txt does not call heat_take_renamed_options()")
endif()
set(pairs ${HEAT_RENAMED_OPTIONS})
set(options "")
set(old_names "")
set(new_names "")
while(pairs)
  list(POP_FRONT pairs old new)
  if(NOT top MATCHES "option\\(${new} ")
    message(FATAL_ERROR "${new} (cmake/renamed_options.cmake) is not an option() of CMakeLists.txt")
  endif()
  string(APPEND options "option(${new} \"\" ON)\n")
  list(APPEND old_names ${old})
  list(APPEND new_names ${new})
endwhile()

file(REMOVE_RECURSE ${WORK_DIR})
file(WRITE ${WORK_DIR}/src/CMakeLists.txt
     "cmake_minimum_required(VERSION 3.24)\nproject(renamed_options NONE)\n${options}"
     "include(${SOURCE_DIR}/cmake/renamed_options.cmake)\nheat_take_renamed_options()\n")

# Configures, then checks the warnings (`warned` true: one per old name; false: none) and that
# every new name holds OFF, the value the old names gave, and no old name is left in the cache.
function(configure_and_check warned)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK_DIR}/src -B ${WORK_DIR}/build ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configure failed (${rc}):\n${out}\n${err}")
  endif()
  string(REGEX REPLACE "[ \n]+" " " err_words "${err}")
  foreach(old new IN ZIP_LISTS old_names new_names)
    string(FIND "${err_words}" "${old} is renamed ${new}" at)
    if(warned AND at EQUAL -1)
      message(FATAL_ERROR "no deprecation warning for ${old}:\n${err}")
    elseif(NOT warned AND NOT at EQUAL -1)
      message(FATAL_ERROR "a second configure warned again about ${old}:\n${err}")
    endif()
    file(STRINGS ${WORK_DIR}/build/CMakeCache.txt value REGEX "^${new}:BOOL=")
    if(NOT value STREQUAL "${new}:BOOL=OFF")
      message(FATAL_ERROR "-D${old}=OFF left ${new} as '${value}'")
    endif()
    file(STRINGS ${WORK_DIR}/build/CMakeCache.txt stale REGEX "^${old}:")
    if(stale)
      message(FATAL_ERROR "${old} is still in the cache: ${stale}")
    endif()
  endforeach()
endfunction()

set(old_arguments "")
foreach(old ${old_names})
  list(APPEND old_arguments -D${old}=OFF)
endforeach()
configure_and_check(TRUE ${old_arguments})
configure_and_check(FALSE)
list(LENGTH old_names count)
message("renamed options: ${count} old names configure their new ones, with a deprecation warning each")
