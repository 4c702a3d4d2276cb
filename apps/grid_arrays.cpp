#include "apps/grid_arrays.hpp"

#include <vector>

#include "core/errors.hpp"
#include "core/number_text.hpp"
#include "io/input_file.hpp"

namespace heat {
namespace {

// "NX x NY x NZ points, h = (HX, HY, HZ)".
std::string spacing_text(const Grid& g) {
  return std::to_string(g.nx) + " x " + std::to_string(g.ny) + " x " + std::to_string(g.nz) + " points, h = (" +
         number_text(g.hx) + ", " + number_text(g.hy) + ", " + number_text(g.hz) + ")";
}

}  // namespace

void require_array_on_grid(const std::string& file, const std::string& array, const Grid& run,
                           const std::string& named, const std::string& rule) {
  ImageFileInfo info;
  try {
    info = read_image_file_info(file);
  } catch (const InputError& e) {
    throw InputError(named + e.what());
  }
  const Grid& g = info.grid;
  if (g.nx != run.nx || g.ny != run.ny || g.nz != run.nz || g.hx != run.hx || g.hy != run.hy || g.hz != run.hz)
    throw InputError(named + file + " is on another grid (" + spacing_text(g) + ") than the run's (" + spacing_text(run) +
                     "): " + rule);
  for (const std::string& name : info.point_arrays)
    if (name == array) return;
  std::string have;
  for (const std::string& name : info.point_arrays) have += (have.empty() ? "" : ", ") + name;
  throw InputError(named + file + " has no point array '" + array + "' (it has: " + (have.empty() ? "none" : have) +
                   ")");
}

}  // namespace heat
