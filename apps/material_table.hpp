// The table of --materials F.toml (docs/design.md §1, "Materials"): one [materials.NAME] table a
// material, as engineers describe a part,
//
//   [materials.copper]
//   conductivity = 400       # K, W/(m K)
//   heat_capacity = 3.45e6   # C = rho c_p, J/(m^3 K)
//   label = 1                # its value in --material-labels' array
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace heat {

struct MaterialEntry {
  std::string name;
  double conductivity = 0, heat_capacity = 0;
  std::int64_t label = 0;
};

// The materials of the TOML file `path`, in the file's order. InputError naming the file and the
// line for a file that cannot be read or is not TOML, a key other than [materials.NAME] tables, a
// table without conductivity, heat_capacity or label or with another key, a conductivity or heat
// capacity that is not a positive finite number, a label that is not an integer, two materials of
// one label, or no material at all.
std::vector<MaterialEntry> read_material_table(const std::string& path);

}  // namespace heat
