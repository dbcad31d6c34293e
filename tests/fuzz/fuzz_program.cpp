#include "fuzz_program.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "byte_stream.hpp"

namespace strided_fuzz {

namespace {

const std::uint8_t* g_input = nullptr;
std::size_t g_input_size = 0;

}  // namespace

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "strided fuzz: contract violated: %s\n", what.c_str());
  if (std::FILE* out = std::fopen("strided-fuzz-failure.bin", "wb")) {
    if (g_input_size) std::fwrite(g_input, 1, g_input_size, out);
    std::fclose(out);
    std::fprintf(stderr, "strided fuzz: input (%zu bytes) written to strided-fuzz-failure.bin\n",
                 g_input_size);
  }
  std::abort();
}

void run_program(const std::uint8_t* data, std::size_t size) {
  g_input = data;
  g_input_size = size;
  // The first two bytes give the buffer length (modulo 1025) and, above it, the element type:
  // inputs written before doubles existed keep their meaning where that bit is 0.
  ByteStream head(data, size);
  if (head.below(65536) / 1025 % 2 == 1)
    run_double_program(data, size);
  else
    run_complex_program(data, size);
}

}  // namespace strided_fuzz
