// The fuzz program's double instance, in its own translation unit.
#include "program.hpp"

namespace strided_fuzz {

void run_double_program(const std::uint8_t* data, std::size_t size) {
  Program<double>(data, size).run();
}

}  // namespace strided_fuzz
