#ifndef STRIDED_BACKENDS_HOST_ROWS_AHEAD_HPP
#define STRIDED_BACKENDS_HOST_ROWS_AHEAD_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// Fetches the lines of a tile's rows into L2 a few at a time, spread over the work of an earlier
// phase: a staged A + B^T tile transposes B into its stage first and only then reads A's rows,
// so A's reads started when the stage was done, and memory sat idle on the read side while B's
// transposed reads waited on their own misses. Issued among those transposes, A's lines arrive
// in L2 while B is staged (docs/performance.md, CPU pass 22). Host code only.

#include <cstddef>
#include <cstdint>

#include "strided/backends/host/simd_transpose.hpp"  // prefetch_rows, fetch_line_l2

namespace strided::detail {

/// The lines that a row of `bytes` bytes from `first` touches: the line `first` lies in, and
/// how many lines from there.
struct RowLines {
  const char* first;
  std::size_t count;
};
inline RowLines row_lines(const void* first, std::size_t bytes) {
  const auto at = reinterpret_cast<std::uintptr_t>(first);
  return {reinterpret_cast<const char*>(at - at % 64), (at % 64 + bytes + 63) / 64};
}

class RowsAhead {
 public:
  /// At most this many operands' rows are fetched: each is a tile of the L2's quarter at most
  /// (the planner's A + B^T tiles), beside a stage of the same size.
  static constexpr int MAX_OPERANDS = 2;

  /// Adds the n1 rows of `bytes` bytes each at first, first + pitch, ... (pitch in bytes).
  /// Ignored beyond MAX_OPERANDS, or when its rows differ from the first operand's.
  void add(const void* first, std::ptrdiff_t pitch, std::size_t bytes, std::size_t n1) {
    const RowLines row = row_lines(first, bytes);
    if (m_count == MAX_OPERANDS || (m_count > 0 && (row.count != m_row_lines || n1 != m_rows)))
      return;
    m_line[m_count] = row.first;
    m_pitch[m_count++] = pitch;
    m_row_lines = row.count;
    m_rows = n1;
  }

  /// Fetches the next `lines` lines of every operand's rows (nothing once all are fetched).
  void step(std::size_t lines) {
    step(lines, [](const char* line) { simd::prefetch_rows<1, simd::FetchInto::l2>(line, 0); });
  }

  /// The same, calling fetch(line start) for each line (the tests record them).
  template <class Fetch>
  void step(std::size_t lines, Fetch&& fetch) {
    for (std::size_t t = 0; t < lines && m_row < m_rows; ++t) {
      for (int c = 0; c < m_count; ++c) fetch(m_line[c] + m_in_row * 64);
      if (++m_in_row == m_row_lines) {  // (counted: a division per line cost a tenth of a tile)
        m_in_row = 0;
        if (++m_row < m_rows)  // (never a pointer past the last row)
          for (int c = 0; c < m_count; ++c) m_line[c] += m_pitch[c];
      }
    }
  }

 private:
  const char* m_line[MAX_OPERANDS] = {};  // each operand's current row, from its first line
  std::ptrdiff_t m_pitch[MAX_OPERANDS] = {};
  int m_count = 0;
  std::size_t m_row_lines = 0, m_rows = 0;
  std::size_t m_row = 0, m_in_row = 0;  // the next line: row m_row, line m_in_row of it
};

/// Fetches into L2 the lines of `rows` rows of `bytes` bytes each, the first at `first` and the
/// next `pitch` bytes on, row by row: a row's lines are asked for back to back, so memory
/// serves them from one open DRAM page (the same lines asked for a line of each row at a time
/// arrived 1.3x slower; docs/performance.md, CPU pass 23). `fetch(line start)` is called for
/// each line start (the tests record them).
template <class Fetch>
void fetch_rows(const void* first, std::ptrdiff_t pitch, std::size_t bytes, std::size_t rows,
                Fetch&& fetch) {
  if (bytes == 0) return;
  const char* row = static_cast<const char*>(first);
  for (std::size_t r = 0; r < rows; ++r) {
    // Each row's own lines: rows a pitch of no whole lines apart start at other points of one.
    const RowLines lines = row_lines(row, bytes);
    for (std::size_t l = 0; l < lines.count; ++l) fetch(lines.first + l * 64);
    if (r + 1 < rows) row += pitch;  // (never a pointer past the last row)
  }
}

inline void fetch_rows(const void* first, std::ptrdiff_t pitch, std::size_t bytes,
                       std::size_t rows) {
  fetch_rows(first, pitch, bytes, rows, [](const char* line) { simd::fetch_line_l2(line); });
}

}  // namespace strided::detail

#endif
