# The ParaView test (issue 5): pvbatch opens heatrk4's .hdf, .hdf.series, .vti and .pvd files
# and reads back exactly what was written. Reported as skipped (exit 77) where pvbatch, xvfb-run
# or ParaView's python modules are missing; the test itself installs nothing. The ParaView tests
# hold one lock (RESOURCE_LOCK xvfb): two `xvfb-run -a` started at once can pick the same display,
# and the second pvbatch then aborts (seen under ctest -j2).
set(HEAT_PARAVIEW_PYTHONPATH "${CMAKE_BINARY_DIR}/paraview-python/usr/lib/python3/dist-packages"
    CACHE PATH "folder holding ParaView's python modules (paraview/simple.py), unpacked from python3-paraview")

if(HEAT_HAVE_HDF5)
  add_executable(write_paraview_fixture paraview/write_paraview_fixture.cpp)
  target_link_libraries(write_paraview_fixture PRIVATE heat_io)
  add_test(NAME paraview_opens_snapshots
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/paraview/run_paraview_test.sh $<TARGET_FILE:write_paraview_fixture>
                   ${HEAT_PARAVIEW_PYTHONPATH} ${CMAKE_CURRENT_BINARY_DIR}/paraview-test ${HEAT_HAVE_VTK})
  set_tests_properties(paraview_opens_snapshots PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS paraview RESOURCE_LOCK xvfb)
  # The same through the H5Z-ZFP plugin, for ZFP-compressed series (HEAT_ZFP_PLUGIN_DIR: CMakeLists.txt here).
  add_test(NAME paraview_reads_zfp_snapshots
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/paraview/run_paraview_zfp_test.sh $<TARGET_FILE:write_paraview_fixture>
                   ${HEAT_PARAVIEW_PYTHONPATH} ${CMAKE_CURRENT_BINARY_DIR}/paraview-zfp-test ${HEAT_ZFP_PLUGIN_DIR})
  set_tests_properties(paraview_reads_zfp_snapshots PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS paraview RESOURCE_LOCK xvfb)
endif()
