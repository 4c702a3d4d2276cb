// A run's material fields (docs/design.md §1, "Materials"): K and C from point arrays of VTKHDF
// files on the run's grid (--conductivity-file, --heat-capacity-file) or in memory (heatrk4.step's
// conductivity= and heat_capacity= arrays), or by region: an integer
// label array (--material-labels F.hdf:ARRAY) and a TOML table of the materials
// (--materials F.toml). Read and checked while the run is planned, since the largest K/C sets dt:
// every bad value is refused before any work starts.
#pragma once

#include <memory>
#include <string>

#include "apps/run_options.hpp"
#include "core/materials.hpp"

namespace heat {

// The first material option `o` gives, as a command line would ("--materials parts.toml"); ""
// where it gives none.
std::string material_fields_named(const RunOptions& o);

// Sets p.materials from `o` on p's grid, for its order and faces, and p.alpha to the largest K/C;
// returns what the snapshots record (none where `o` gives no field). A quantity no field gives
// takes p's constant (p.conductivity or p.heat_capacity). InputError for --alpha beside a field;
// --materials without --material-labels or the other way round, or beside a file or array of K or C; a file
// that cannot be read, of another grid or without the array; a label that is not an integer or
// has no table entry; a table that is not [materials.NAME] tables of a positive conductivity and
// heat_capacity and a distinct integer label; K or C zero, negative or not finite anywhere (the
// first such point named); fields whose checksum differs from `o.materials_checksum`, the one a
// restart's snapshot recorded.
MaterialRecord resolve_material_fields(const RunOptions& o, Problem& p);

// The materials of K and C (on p's grid, positive everywhere) as p's backends take them: the ghosts
// of every face that is not layer set from the body, mirrored (wrapped where periodic), as an
// insulated face's fill mirrors the field, and the convective faces' weights row by row. p's grid,
// order and faces are what the materials serve; it need not hold materials itself.
std::shared_ptr<const Materials> make_materials(const Problem& p, Field<double> conductivity,
                                                Field<double> heat_capacity);

// FNV-1a over the bytes of K, then of C, as given (before set-up fills their ghosts).
std::string materials_checksum(const Field<double>& conductivity, const Field<double>& heat_capacity);

}  // namespace heat
