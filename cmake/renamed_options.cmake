# Every build option is HEAT_WITH_<part>, the prefix most of them had. The older names below are
# kept for one release after 0.1: -D<old>=V still works, sets the new option to V (over a value the
# new name has) with a deprecation warning, and leaves the cache, so it warns once.
set(HEAT_RENAMED_OPTIONS
    HEAT_ENABLE_CUDA HEAT_WITH_CUDA
    HEAT_BUILD_TESTS HEAT_WITH_TESTS
    HEAT_BUILD_BENCHMARKS HEAT_WITH_BENCHMARKS
    HEAT_BUILD_FUZZERS HEAT_WITH_FUZZERS
    HEAT_TILED_SWEEP HEAT_WITH_TILED_SWEEP)

# Called after the new names' option()s.
function(heat_take_renamed_options)
  set(pairs ${HEAT_RENAMED_OPTIONS})
  while(pairs)
    list(POP_FRONT pairs old new)
    if(DEFINED ${old})
      message(DEPRECATION "${old} is renamed ${new} (every heatrk4 option is HEAT_WITH_<part>): ${new} "
                          "is set to ${${old}} from it; the old name goes in the next release")
      set_property(CACHE ${new} PROPERTY VALUE "${${old}}")
      unset(${old} CACHE)
    endif()
  endwhile()
endfunction()
