// libFuzzer entry points (clang -fsanitize=fuzzer): Kokkos lives for the whole process.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include <Kokkos_Core.hpp>

#include "fuzz_program.hpp"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  // libFuzzer's own flags (-max_total_time=...) are not Kokkos', so Kokkos sees none of them.
  (void)argc;
  (void)argv;
  Kokkos::initialize();
  std::atexit([] { Kokkos::finalize(); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  strided_fuzz::run_program(data, size);
  return 0;
}
