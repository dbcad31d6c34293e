// The fuzz program's complex instance, in its own translation unit.
#include "program.hpp"

namespace strided_fuzz {

void run_complex_program(const std::uint8_t* data, std::size_t size) {
  Program<Complex>(data, size).run();
}

}  // namespace strided_fuzz
