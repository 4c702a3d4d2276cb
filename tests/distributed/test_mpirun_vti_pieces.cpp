// --format vtk on ranks (docs/design.md §7), read back with VTK's own readers, no ParaView: the
// .pvti of a 2- and 3-rank run reads through vtkXMLPImageDataReader as one image with the whole
// grid's extent, spacing and origin and bitwise the 1-rank run's .vti values; its pieces follow
// each other, each starting at the plane the one before ends with; and each piece read alone is
// its planes of the grid, with the 1-rank values on all of them, the plane it shares with the next piece included (a
// rank's own copy of that plane is a ghost plane, a step behind, and a reader of the .pvti may
// take it from either piece).
#include <gtest/gtest.h>
#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkXMLImageDataReader.h>
#include <vtkXMLPImageDataReader.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <filesystem>
#include <string>
#include <vector>

#include "io/series_files.hpp"
#include "mpirun_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;

using test::run_on;

struct Image {
  std::array<int, 6> extent{};
  std::array<double, 3> spacing{}, origin{};
  std::string type;         // the array's value type: "float", "double"
  std::vector<char> bytes;  // the values as stored, x fastest
  bool read = false;
};

template <typename Reader>
Image read_image(const std::string& path) {
  vtkNew<Reader> reader;
  reader->SetFileName(path.c_str());
  reader->Update();
  Image image;
  vtkImageData* data = reader->GetOutput();
  vtkDataArray* u = data ? data->GetPointData()->GetArray("u") : nullptr;
  if (!u) return image;
  data->GetExtent(image.extent.data());
  data->GetSpacing(image.spacing.data());
  data->GetOrigin(image.origin.data());
  image.type = u->GetDataTypeAsString();
  const std::size_t size = std::size_t(u->GetNumberOfTuples()) * std::size_t(u->GetDataTypeSize());
  image.bytes.assign(static_cast<const char*>(u->GetVoidPointer(0)), static_cast<const char*>(u->GetVoidPointer(0)) + size);
  image.read = true;
  return image;
}

std::vector<std::string> run_args(const std::string& precision, const std::string& output) {
  // nz 11: uneven slabs on 2 and 3 ranks; nx != ny so that a transposed plane would show.
  return {"--backend", "cpu", "--order", "4", "--precision", precision, "--nx", "9", "--ny", "7", "--nz", "11",
          "--init", "randn", "--cfl", "0.2", "--steps", "4", "--output-every", "2", "--format", "vtk", "--output",
          output, "--quiet"};
}

struct PieceExtent {
  std::array<int, 6> extent{};
  std::string source;
};

// The pieces a .pvti lists, in its order.
std::vector<PieceExtent> piece_extents(const std::string& pvti) {
  std::vector<PieceExtent> pieces;
  std::istringstream in(test::read_text(pvti));
  for (std::string line; std::getline(in, line);) {
    PieceExtent piece;
    char source[256] = {};
    int* e = piece.extent.data();
    if (std::sscanf(line.c_str(), " <Piece Extent=\"%d %d %d %d %d %d\" Source=\"%255[^\"]\"", &e[0], &e[1], &e[2], &e[3],
                    &e[4], &e[5], source) == 7) {
      piece.source = source;
      pieces.push_back(piece);
    }
  }
  return pieces;
}

// The planes [z_first, z_last] of an image whose planes start at z = 0.
std::vector<char> planes_of(const Image& whole, int z_first, int z_last) {
  const std::size_t plane = whole.bytes.size() / std::size_t(whole.extent[5] + 1);
  return {whole.bytes.begin() + std::ptrdiff_t(plane * z_first), whole.bytes.begin() + std::ptrdiff_t(plane * (z_last + 1))};
}

void expect_pieces_join_as_the_one_rank_image(const std::string& precision) {
  const std::string one = test::temp_directory("one");
  const auto single = run_on(1, run_args(precision, one));
  ASSERT_EQ(single.exit_code, 0) << single.output;
  for (int ranks : {2, 3}) {
    const std::string label = precision + " on " + std::to_string(ranks) + " ranks";
    const std::string out = test::temp_directory("ranks");
    const auto result = run_on(ranks, run_args(precision, out));
    ASSERT_EQ(result.exit_code, 0) << label << ":\n" << result.output;
    EXPECT_NE(test::read_text(out + "/heat.pvd").find("file=\"heat_000004.pvti\""), std::string::npos) << label;
    for (const std::string step : {"000000", "000002", "000004"}) {
      const Image expected = read_image<vtkXMLImageDataReader>(one + "/heat_" + step + ".vti");
      ASSERT_TRUE(expected.read) << label << " step " << step;
      const Image joined = read_image<vtkXMLPImageDataReader>(out + "/heat_" + step + ".pvti");
      ASSERT_TRUE(joined.read) << label << " step " << step << ": the .pvti does not read";
      EXPECT_EQ(joined.extent, (std::array<int, 6>{0, 8, 0, 6, 0, 10})) << label;
      EXPECT_EQ(joined.spacing, expected.spacing) << label;
      EXPECT_EQ(joined.origin, (std::array<double, 3>{0, 0, 0})) << label;
      EXPECT_EQ(joined.type, expected.type) << label;
      EXPECT_TRUE(joined.bytes == expected.bytes) << label << " step " << step << ": the values differ";
      // Each piece begins at the plane the one before it ends with, and the last ends the grid.
      const std::vector<PieceExtent> pieces = piece_extents(out + "/heat_" + step + ".pvti");
      ASSERT_EQ(int(pieces.size()), ranks) << label;
      int next_first = 0;
      for (int rank = 0; rank < ranks; ++rank) {
        const PieceExtent& extent = pieces[std::size_t(rank)];
        EXPECT_EQ(extent.source, vti_piece_name(std::stoi(step), rank, ranks)) << label;
        EXPECT_EQ(extent.extent[4], next_first) << label << " piece " << rank;
        next_first = extent.extent[5];
        // Read alone, a piece is its planes where they lie in the whole grid.
        const Image piece = read_image<vtkXMLImageDataReader>(out + "/" + extent.source);
        ASSERT_TRUE(piece.read) << label << " piece " << rank;
        EXPECT_EQ(piece.extent, extent.extent) << label << " piece " << rank;
        EXPECT_TRUE(piece.bytes == planes_of(expected, extent.extent[4], extent.extent[5]))
            << label << " step " << step << ": piece " << rank << "'s planes " << extent.extent[4] << " to "
            << extent.extent[5] << " differ from the 1-rank run's";
      }
      EXPECT_EQ(next_first, 10) << label;
    }
  }
}

// Rank 1's files limited to 1 KiB, less than its piece: the run ends with exit 3, and no piece of
// the failed snapshot is left under its final name, nor a .pvti over missing pieces.
TEST(MpirunVtiPieces, APieceFailingOnOneRankLeavesNoPieceAndNoPvti) {
  for (const std::string buffers : {"0", "2"}) {
    const std::string out = test::temp_directory("vti-fails") + "/out";
    std::vector<std::string> args = run_args("double", out);
    args.insert(args.end(), {"--snapshot-buffers", buffers});
    const auto failed = run_on(2, args, "OMPI_MCA_btl=self,tcp", test::limit_files_of_rank(1, 1024));
    EXPECT_EQ(failed.exit_code, 3) << buffers << " buffers:\n" << failed.output;
    for (const auto& name : {vti_piece_name(0, 0, 2), vti_piece_name(0, 1, 2), std::string("heat_000000.pvti")})
      EXPECT_FALSE(fs::exists(out + "/" + name)) << buffers << " buffers: " << name << " was left";
  }
}

TEST(MpirunVtiPieces, PvtiReadsAsTheOneRankVtiFloat) { expect_pieces_join_as_the_one_rank_image("float"); }
TEST(MpirunVtiPieces, PvtiReadsAsTheOneRankVtiDouble) { expect_pieces_join_as_the_one_rank_image("double"); }

}  // namespace
}  // namespace heat
