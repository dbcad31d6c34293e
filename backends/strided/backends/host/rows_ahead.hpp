#ifndef STRIDED_BACKENDS_HOST_ROWS_AHEAD_HPP
#define STRIDED_BACKENDS_HOST_ROWS_AHEAD_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// Fetches the lines of a tile's rows into L2 a few at a time, spread over the work of an earlier
// phase: a staged A + B^T tile transposes B into its stage first and only then reads A's rows,
// so A's reads started when the stage was done, and memory sat idle on the read side while B's
// transposed reads waited on their own misses. Issued among those transposes, A's lines arrive
// in L2 while B is staged (docs/performance.md, CPU pass 22). Column bands fetch the next
// tile's source rows the same way, between the blocks of this one (CPU pass 26). Host code only.

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
  /// (the planner's A + B^T tiles, beside a stage of the same size), or 16 KiB (column bands).
  /// Fetches are hints: the rows of a further operand are read without them.
  static constexpr int MAX_OPERANDS = 4;

  /// Adds the n1 rows of `bytes` bytes each at first, first + pitch, ... (pitch in bytes). Each
  /// operand keeps its own place: operands may differ in rows, lengths and offsets in a line.
  void add(const void* first, std::ptrdiff_t pitch, std::size_t bytes, std::size_t n1) {
    if (m_count == MAX_OPERANDS || bytes == 0 || n1 == 0) return;
    Rows& rows = m_rows[m_count++];
    rows.row = static_cast<const char*>(first);
    rows.pitch = pitch;
    rows.bytes = bytes;
    rows.left = n1;
    rows.start_row();
    const char* row = rows.row;
    for (std::size_t r = 0; r < n1; ++r) {
      m_lines += row_lines(row, bytes).count;
      if (r + 1 < n1) row += pitch;  // (never a pointer past the last row)
    }
  }

  /// Lines not yet fetched.
  std::size_t lines_left() const { return m_lines; }

  /// Fetches the next `lines` lines of every operand's rows (nothing once all are fetched).
  void step(std::size_t lines) {
    step(lines, [](const char* line) { simd::prefetch_rows<1, simd::FetchInto::l2>(line, 0); });
  }

  /// The same, calling fetch(line start) for each line (the tests record them). The operands
  /// take turns, a line each.
  template <class Fetch>
  void step(std::size_t lines, Fetch&& fetch) {
    for (std::size_t t = 0; t < lines; ++t) {
      bool any = false;
      for (int c = 0; c < m_count; ++c)
        if (m_rows[c].left > 0) {
          fetch(m_rows[c].line);
          m_rows[c].next_line();
          --m_lines;
          any = true;
        }
      if (!any) return;
    }
  }

 private:
  /// One operand's place: the line to fetch next, in the row at `row`.
  struct Rows {
    const char* row = nullptr;
    std::ptrdiff_t pitch = 0;
    std::size_t bytes = 0;
    std::size_t left = 0;  // rows from `row` on, its own included
    const char* line = nullptr;
    std::size_t row_lines_left = 0;  // (counted: a division per line cost a tenth of a tile)

    void start_row() {
      // Each row's own lines: rows a pitch of no whole lines apart start at other points of one.
      const RowLines lines = row_lines(row, bytes);
      line = lines.first;
      row_lines_left = lines.count;
    }
    void next_line() {
      line += 64;
      if (--row_lines_left > 0) return;
      if (--left > 0) {  // (never a pointer past the last row)
        row += pitch;
        start_row();
      }
    }
  };

  Rows m_rows[MAX_OPERANDS];
  int m_count = 0;
  std::size_t m_lines = 0;
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
