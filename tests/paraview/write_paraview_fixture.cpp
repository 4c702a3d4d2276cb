// Writes the snapshots that the ParaView test opens, through the same SnapshotWriter as a run,
// plus the exact values of each snapshot as raw little-endian binary (u_<step>.raw), so the
// pvbatch script can check bitwise that what ParaView reads is what was written. With a codec
// (--compress's value), the snapshots are compressed with it and heatrk4's own reading of each
// is written too (decoded_<step>.raw), for ParaView to match.
// Usage: write_paraview_fixture DIR float|double hdf5|both [CODEC]
#include <cstdio>
#include <fstream>
#include <string>

#include "io/input_file.hpp"
#include "io/snapshots.hpp"
#include "core/initial_conditions.hpp"

namespace {

// Odd sizes, unequal on every axis, and unequal spacings: a transposed axis would show.
constexpr int nx = 13, ny = 11, nz = 9;
constexpr double hx = 0.5, hy = 0.75, hz = 1.25;
// Times exactly representable in binary, so the series times compare with ==.
constexpr int steps[] = {0, 3, 6};
constexpr double time_per_step = 0.125;

template <typename T>
heat::Field<T> values_for_step(int step) {
  heat::Field<T> u(nx, ny, nz);
  for (std::size_t n = 0; n < u.size(); ++n) u.data()[n] = T(heat::standard_normal(1000 + step, n));
  return u;
}

template <typename T>
void write_raw(const std::string& path, const heat::Field<T>& u) {
  std::ofstream raw(path, std::ios::binary);
  raw.write(reinterpret_cast<const char*>(u.data()), std::streamsize(u.size() * sizeof(T)));
}

template <typename T>
void write_all(const std::string& directory, heat::OutputFormats formats, const char* codec) {
  heat::RunDescription run;
  run.problem.grid = {nx, ny, nz, hx, hy, hz};
  run.precision = sizeof(T) == 4 ? "float" : "double";
  run.backend = "fixture";
  run.init = "randn";
  heat::OutputSpec spec;
  spec.directory = directory;
  spec.formats = formats;
  // Float snapshots are compressed (chunks deflated on every core, written with HDF5's direct
  // chunk write), double ones written by HDF5 itself: ParaView must read both bitwise.
  spec.compress = codec ? heat::parse_compression(codec) : heat::Compression(sizeof(T) == 4 ? 1 : 0);
  heat::SnapshotWriter writer(spec, run);
  for (int step : steps) {
    const auto u = values_for_step<T>(step);
    writer.write(u, step, step * time_per_step);
    write_raw(directory + "/u_" + std::to_string(step) + ".raw", u);
    if (codec) {
      const std::string name = directory + "/heat_" + std::string(6 - std::to_string(step).size(), '0') +
                               std::to_string(step) + ".hdf";
      write_raw(directory + "/decoded_" + std::to_string(step) + ".raw",
                heat::field_cast<T>(heat::read_initial_field(name).values));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: %s DIR float|double hdf5|both [CODEC]\n", argv[0]);
    return 2;
  }
  const heat::OutputFormats formats = heat::parse_output_formats(argv[3]);
  if (std::string(argv[2]) == "float")
    write_all<float>(argv[1], formats, argc == 5 ? argv[4] : nullptr);
  else
    write_all<double>(argv[1], formats, argc == 5 ? argv[4] : nullptr);
  return 0;
}
