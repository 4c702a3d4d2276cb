# CTest runs each libFuzzer target of fuzz/ through fuzz/run_fuzz_target.sh: HEAT_FUZZ_ROUNDS
# rounds of HEAT_FUZZ_RUNS_<TARGET> inputs, each from its seed corpus in fuzz/corpus/<target>
# (which also replays every input kept there as a regression case) with a fixed seed, so that
# every CTest run tries the same inputs and gives the same answer (the script's header says how).
# It says which findings are heatrk4's (the test fails, printing the report and the input) and
# which HDF5's. The targets need clang with -fsanitize=fuzzer, so fuzz_build configures fuzz/ with
# clang++ into <build>/fuzz first; findings and their reports go to <build>/fuzz/findings-<target>.
find_program(HEAT_CLANGXX NAMES clang++ clang++-14 clang++-15 clang++-16)
find_program(HEAT_CLANG NAMES clang clang-14 clang-15 clang-16)
# On 2 cores at a load average of about 6: fuzz_command_line 16 s (~8 ms an input: it builds the
# whole command line each time), fuzz_init_file 6 s (most rounds end early at an HDF5 fault).
set(HEAT_FUZZ_RUNS_COMMAND_LINE 500 CACHE STRING "Inputs each fuzzing round of fuzz_command_line tries")
set(HEAT_FUZZ_RUNS_INIT_FILE 2000 CACHE STRING "Inputs each fuzzing round of fuzz_init_file tries")
set(HEAT_FUZZ_ROUNDS 4 CACHE STRING "Fuzzing rounds (seeds 1, 2, ...) of a CTest fuzz test")
set(heat_fuzz_usable OFF)
if(HEAT_CLANGXX AND HEAT_CLANG)
  set(probe ${CMAKE_BINARY_DIR}/fuzz-probe)
  file(WRITE ${probe}.cpp "extern \"C\" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }\n")
  execute_process(COMMAND ${HEAT_CLANGXX} -fsanitize=fuzzer,address,undefined ${probe}.cpp -o ${probe}
                  RESULT_VARIABLE probe_status OUTPUT_QUIET ERROR_QUIET)
  if(probe_status EQUAL 0)
    set(heat_fuzz_usable ON)
  endif()
endif()

if(NOT heat_fuzz_usable)
  message(STATUS "heatrk4: no clang++ that links -fsanitize=fuzzer (apt-get install clang): fuzz tests OFF")
  return()
endif()
message(STATUS "heatrk4: fuzz tests ON (${HEAT_CLANGXX}, ${HEAT_FUZZ_ROUNDS} rounds per target)")
set(fuzz_dir ${CMAKE_BINARY_DIR}/fuzz)
add_test(NAME fuzz_build
         COMMAND sh -c "\"$0\" -S \"$1\" -B \"$2\" -DCMAKE_CXX_COMPILER=\"$3\" -DCMAKE_C_COMPILER=\"$4\" >/dev/null && \"$0\" --build \"$2\" -j \"$(nproc)\""
                 ${CMAKE_COMMAND} ${PROJECT_SOURCE_DIR}/fuzz ${fuzz_dir} ${HEAT_CLANGXX} ${HEAT_CLANG})
set_tests_properties(fuzz_build PROPERTIES FIXTURES_SETUP heat_fuzzers TIMEOUT 3600)

set(fuzz_targets command_line)
if(HEAT_HAVE_HDF5)
  list(APPEND fuzz_targets init_file)
endif()
foreach(target ${fuzz_targets})
  string(TOUPPER ${target} target_upper)
  add_test(NAME fuzz_${target}
           COMMAND ${PROJECT_SOURCE_DIR}/fuzz/run_fuzz_target.sh ${fuzz_dir}/fuzz_${target}
                   ${PROJECT_SOURCE_DIR}/fuzz/corpus/${target} ${fuzz_dir} ${HEAT_FUZZ_RUNS_${target_upper}} ${HEAT_FUZZ_ROUNDS})
  set_tests_properties(fuzz_${target} PROPERTIES FIXTURES_REQUIRED heat_fuzzers TIMEOUT 600 RUN_SERIAL ON
                       ENVIRONMENT "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/fuzz/lsan.supp")
endforeach()
