// apps/plot_monitors.py's text, compiled into heatrk4 (apps/CMakeLists.txt writes its definition
// at configure time), so that heatrk4 plot works wherever the binary is installed.
#pragma once

namespace heat {

const char* plot_monitors_script();

}  // namespace heat
