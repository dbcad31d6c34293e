#ifndef STRIDED_REPORT_SIZES_HPP
#define STRIDED_REPORT_SIZES_HPP

// Problem sizes: PERFORMANCE.md's for the full report. For --quick, 1/16 to 1/3 of those
// element counts, most arrays still at least as large as this machine's 32 MiB last-level cache
// so that the figures stay about memory, not cache.
#include <cstddef>

namespace strided_report {

struct Sizes {
  std::size_t w1_extent = 64;    ///< W1: A is w1_extent^4
  std::size_t w2_rank = 25;      ///< W2: every extent 2
  std::size_t w3_extent = 8192;  ///< W3: n x n
  std::size_t square = 4096;     ///< W4 (transposed, axis sums), W5 (A + B^T), W7: n x n
  std::size_t sum_log2 = 26;     ///< W4.sum_contig: 2^k doubles
  std::size_t vector_log2 = 25;  ///< W5.mul_contig, W6: 2^k elements (dot_strided: 2^(k-1))
  std::size_t w9_log2 = 24;      ///< W9: 2^k elements at every rank
  /// O: extents of the odd-extent permutations at ranks 3, 4, 5, 6 (about 200 MiB each)
  std::size_t odd_extent[4] = {300, 72, 30, 17};
  std::size_t w8_work = 1 << 20;  ///< W8: elements per timing sample (calls = this / size)
  std::size_t limit_bytes = std::size_t(256) << 20;  ///< each STREAM array

  static Sizes full() { return {}; }
  static Sizes quick() {
    Sizes s;
    s.w1_extent = 48;
    s.w2_rank = 22;
    s.w3_extent = 2048;
    s.square = 2048;
    s.sum_log2 = 23;
    s.vector_log2 = 22;
    s.w9_log2 = 22;
    s.odd_extent[0] = 161;
    s.odd_extent[1] = 45;
    s.odd_extent[2] = 21;
    s.odd_extent[3] = 13;
    s.w8_work = 1 << 17;
    s.limit_bytes = std::size_t(64) << 20;
    return s;
  }
};

}  // namespace strided_report

#endif
