#ifndef STRIDED_TESTS_FUZZ_BYTE_STREAM_HPP
#define STRIDED_TESTS_FUZZ_BYTE_STREAM_HPP

#include <cstddef>
#include <cstdint>
#include <limits>

namespace strided_fuzz {

/// A fuzzer's bytes read as small decisions and integers. Past the end every read gives 0, so any
/// input, even an empty one, is a complete program.
class ByteStream {
 public:
  ByteStream(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}

  bool exhausted() const noexcept { return m_pos >= m_size; }

  std::uint8_t byte() noexcept { return m_pos < m_size ? m_data[m_pos++] : 0; }

  /// A value in [0, n) for n >= 1, from as few bytes as n needs.
  std::size_t below(std::size_t n) noexcept {
    if (n <= 1) return 0;
    std::size_t value = 0;
    for (std::size_t range = 1; range < n && range != 0; range <<= 8) value = (value << 8) | byte();
    return value % n;
  }

  /// Eight bytes, little-endian: any 64-bit pattern, extremes included.
  std::uint64_t word() noexcept {
    std::uint64_t value = 0;
    for (int k = 0; k < 8; ++k) value |= std::uint64_t(byte()) << (8 * k);
    return value;
  }

  /// Mostly small extents, some up to 32 (the in-register transposes take blocks of 4 to 16
  /// elements a side), sometimes powers of two up to 2^63 and the largest size_t: the values
  /// where products of extents overflow.
  std::size_t extent() noexcept {
    const std::uint8_t kind = byte();
    if (kind < 144) return kind % 6;
    if (kind < 192) return 6 + kind % 27;
    if (kind < 248) return std::size_t(1) << (kind % 64);
    return kind % 2 ? std::numeric_limits<std::size_t>::max() : std::size_t(word());
  }

  /// Mostly small strides of either sign (0 included), sometimes huge ones and the extremes.
  std::ptrdiff_t stride() noexcept {
    const std::uint8_t kind = byte();
    if (kind < 192) return static_cast<std::ptrdiff_t>(kind % 19) - 9;
    if (kind < 240) {
      const auto magnitude = static_cast<std::ptrdiff_t>(std::uint64_t(1) << (kind % 63));
      return kind % 2 ? magnitude : -magnitude;
    }
    if (kind < 244) return std::numeric_limits<std::ptrdiff_t>::min();
    if (kind < 248) return std::numeric_limits<std::ptrdiff_t>::max();
    return static_cast<std::ptrdiff_t>(word());
  }

 private:
  const std::uint8_t* m_data;
  std::size_t m_size;
  std::size_t m_pos = 0;
};

}  // namespace strided_fuzz

#endif
