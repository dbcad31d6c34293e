#ifndef STRIDED_TESTS_FUZZ_FUZZ_PROGRAM_HPP
#define STRIDED_TESTS_FUZZ_FUZZ_PROGRAM_HPP

#include <cstddef>
#include <cstdint>

namespace strided_fuzz {

/// Runs `data` as a program over one buffer: view constructions with any extents, strides and
/// offsets, every transform, option changes, plans, and kernels between views of that buffer.
/// Each step must throw strided::Error with a code the contract allows (leaving the buffer as it
/// was) or match the reference model element by element; anything else aborts with the input
/// written to `strided-fuzz-failure.bin`. Kokkos must be initialized.
void run_program(const std::uint8_t* data, std::size_t size);

/// The program on one element type (program_double.cpp, program_complex.cpp: two translation
/// units, which compile in parallel).
void run_double_program(const std::uint8_t* data, std::size_t size);
void run_complex_program(const std::uint8_t* data, std::size_t size);

}  // namespace strided_fuzz

#endif
