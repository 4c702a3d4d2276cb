// Initial fields made by the backend itself (on the GPU: made there, nothing uploaded) against
// the host's: randn, sine and uniform bitwise on every backend (the bits test_initial_conditions pins
// hold for the GPU too), gaussian bitwise on the host and within exp's last bit on the GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

class GeneratedField : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (entry().uses_cuda && gpu_count() == 0) GTEST_SKIP() << "no CUDA GPU on this machine";
  }
  const BackendEntry& entry() const { return *default_registry().find(GetParam()); }
};

// The box a rank holds, cut from the whole field made on the host.
template <typename T>
Field<T> box_of(const Field<T>& whole, const GridBox& box) {
  auto part = Field<T>::uninitialized(box.x.count, box.y.count, box.z.count);
  for (int k = 0; k < box.z.count; ++k)
    for (int j = 0; j < box.y.count; ++j)
      for (int i = 0; i < box.x.count; ++i) part(i, j, k) = whole(box.x.first + i, box.y.first + j, box.z.first + k);
  return part;
}

template <typename T>
void expect_made_as_on_the_host(const BackendEntry& entry) {
  // Odd sizes and unequal spacings, so a transposed index or spacing would show.
  const Grid g{37, 22, 19, 0.05, 0.07, 0.11};
  InitSpec randn{InitKind::Randn, 1234, {1, 1, 1}}, sine{InitKind::Sine, 0, {2, 3, 1}}, gaussian{};
  InitSpec uniform{InitKind::Uniform, 0, {1, 1, 1}, 293.15};  // not a float: rounded once
  // The whole grid, the planes of a slab's box in the middle of it, and a rank grid's box that
  // holds part of each row and column.
  for (const GridBox box : {planes_box(g, all_planes(g)), planes_box(g, Planes{5, 9}), GridBox{{3, 20}, {4, 11}, {5, 9}}})
    for (const InitSpec& spec : {randn, sine, gaussian, uniform}) {
      const Grid box_grid{box.x.count, box.y.count, box.z.count, g.hx, g.hy, g.hz};
      auto backend = entry.make<T>(test::gpu_test_problem(box_grid, 2), BackendOptions{});
      backend->upload_generated(g, spec, box);
      Field<T> made(box_grid, T(-12345));
      backend->download(made);
      const Field<T> host = box_of(make_initial_field<T>(g, spec), box);
      const std::string label = entry.name + ": kind " + std::to_string(int(spec.kind)) + ", box from (" +
                                std::to_string(box.x.first) + ", " + std::to_string(box.y.first) + ", " +
                                std::to_string(box.z.first) + ")";
      EXPECT_EQ(std::memcmp(make_initial_field<T>(g, spec, box).data(), host.data(), host.size() * sizeof(T)), 0)
          << label << ": the host's box differs from the whole field's";
      const bool exp_may_differ = spec.kind == InitKind::Gaussian && entry.uses_cuda;
      if (!exp_may_differ) {
        EXPECT_EQ(std::memcmp(made.data(), host.data(), host.size() * sizeof(T)), 0) << label << " differs from the host's";
        continue;
      }
      for (std::size_t n = 0; n < host.size(); ++n)
        ASSERT_NEAR(made.data()[n], host.data()[n], 4 * std::numeric_limits<T>::epsilon() * std::abs(host.data()[n]))
            << label << ": gaussian at flat index " << n;
    }
}

TEST_P(GeneratedField, IsTheHostsFieldFloat) { expect_made_as_on_the_host<float>(entry()); }
TEST_P(GeneratedField, IsTheHostsFieldDouble) { expect_made_as_on_the_host<double>(entry()); }

INSTANTIATE_TEST_SUITE_P(Registry, GeneratedField, ::testing::ValuesIn(default_registry().names()),
                         [](const auto& info) { return info.param; });

// --check starts its reference from the field the backend made; a run from a generated field
// checks out on the cpu backend here and on every GPU backend on the device.
TEST(GeneratedField, CheckPassesFromAFieldMadeByTheBackend) {
  for (const char* init : {"gaussian", "randn", "sine"}) {
    const auto r = test::run_heatrk4({"--n", "18", "--steps", "3", "--init", init, "--check", "--format", "none"});
    EXPECT_EQ(r.exit_code, 0) << init << ":\n" << r.output;
    EXPECT_NE(r.output.find("PASS"), std::string::npos) << r.output;
  }
}

}  // namespace
}  // namespace heat
