// GoogleTest main for tests that use Kokkos: the test binary owns Kokkos' lifetime and takes
// `--threads=N` (see test_session.hpp) so ctest can run it at several thread counts, and fails
// when the count did not take effect. `--strided-algorithm=device` runs every kernel through the
// device algorithm (TeamPolicy) on the host spaces, so the GPU code path is tested without a GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <strided/options.hpp>

#include "test_session.hpp"

int main(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--strided-algorithm=device") == 0) {
      strided::Options device;
      device.algorithm = strided::Algorithm::Device;
      strided::set_default_options(device);  // before any kernel runs
    }
  strided_test::KokkosSession kokkos(argc, argv);
  if (!kokkos.check_concurrency(stdout)) return 1;
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
