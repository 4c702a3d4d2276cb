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

// The planes a rank's box holds, cut from the whole field made on the host.
template <typename T>
Field<T> planes_of(const Field<T>& whole, Planes planes) {
  const std::size_t plane = std::size_t(whole.nx()) * std::size_t(whole.ny());
  auto part = Field<T>::uninitialized(whole.nx(), whole.ny(), planes.count);
  std::memcpy(part.data(), whole.data() + std::size_t(planes.first) * plane, part.size() * sizeof(T));
  return part;
}

template <typename T>
void expect_made_as_on_the_host(const BackendEntry& entry) {
  // Odd sizes and unequal spacings, so a transposed index or spacing would show.
  const Grid g{37, 22, 19, 0.05, 0.07, 0.11};
  InitSpec randn{InitKind::Randn, 1234, {1, 1, 1}}, sine{InitKind::Sine, 0, {2, 3, 1}}, gaussian{};
  InitSpec uniform{InitKind::Uniform, 0, {1, 1, 1}, 293.15};  // not a float: rounded once
  // The whole grid, and the planes of a rank's box in the middle of it.
  for (const Planes planes : {all_planes(g), Planes{5, 9}})
    for (const InitSpec& spec : {randn, sine, gaussian, uniform}) {
      Grid box = g;
      box.nz = planes.count;
      auto backend = entry.make<T>(test::gpu_test_problem(box, 2), BackendOptions{});
      backend->upload_generated(g, spec, planes);
      Field<T> made(box, T(-12345));
      backend->download(made);
      const Field<T> host = planes_of(make_initial_field<T>(g, spec), planes);
      const std::string label = entry.name + ": kind " + std::to_string(int(spec.kind)) + ", planes from " +
                                std::to_string(planes.first);
      EXPECT_EQ(std::memcmp(make_initial_field<T>(g, spec, planes).data(), host.data(), host.size() * sizeof(T)), 0)
          << label << ": the host's planes differ from the whole field's";
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
