// The fuzz program without libFuzzer, for any compiler: replays files (the corpus, a crash
// input) and runs seeded random inputs, so GCC and sanitizer builds run it under ctest.
//
//   strided_fuzz_driver [--kokkos-args] PATH...            run each file (directories: each file)
//   strided_fuzz_driver --seed=S --runs=N [--max-len=L]    N random inputs from seed S
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "fuzz_program.hpp"

namespace {

std::size_t replay(const std::filesystem::path& path) {
  if (std::filesystem::is_directory(path)) {
    std::size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(path))
      if (entry.is_regular_file()) count += replay(entry.path());
    return count;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "strided_fuzz_driver: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  strided_fuzz::run_program(bytes.data(), bytes.size());
  return 1;
}

std::uint64_t flag(const std::string& arg, const char* name, std::uint64_t fallback) {
  const std::string prefix = std::string("--") + name + "=";
  return arg.rfind(prefix, 0) == 0 ? std::stoull(arg.substr(prefix.size())) : fallback;
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  std::uint64_t seed = 0, runs = 0, max_len = 512;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) == 0) {
      seed = flag(arg, "seed", seed);
      runs = flag(arg, "runs", runs);
      max_len = flag(arg, "max-len", max_len);
    } else {
      paths.push_back(arg);
    }
  }
  std::size_t files = 0;
  for (const std::string& p : paths) files += replay(p);
  std::mt19937_64 random(seed);
  std::vector<std::uint8_t> bytes;
  for (std::uint64_t r = 0; r < runs; ++r) {
    bytes.resize(random() % (max_len + 1));
    for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(random());
    strided_fuzz::run_program(bytes.data(), bytes.size());
  }
  std::printf("strided_fuzz_driver: %zu files and %llu random inputs (seed %llu) passed\n", files,
              static_cast<unsigned long long>(runs), static_cast<unsigned long long>(seed));
  return 0;
}
