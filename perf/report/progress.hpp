#ifndef STRIDED_REPORT_PROGRESS_HPP
#define STRIDED_REPORT_PROGRESS_HPP

// One progress line on stderr, rewritten in place on a terminal, one line per step otherwise
// (so that a log stays readable). stdout carries only the report.
#include <unistd.h>
#include <cstdio>
#include <string>

namespace strided_report {

class Progress {
 public:
  Progress() : m_terminal(isatty(fileno(stderr)) != 0) {}
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress() { clear(); }

  void show(const std::string& text) {
    if (m_terminal) {
      // Pad with spaces over the end of a longer previous line.
      const std::size_t pad = m_width > text.size() ? m_width - text.size() : 0;
      std::fprintf(stderr, "\r%s%*s", text.c_str(), static_cast<int>(pad), "");
      m_width = text.size();
    } else {
      std::fprintf(stderr, "%s\n", text.c_str());
    }
    std::fflush(stderr);
  }

  /// Erases the line, before the report itself is printed.
  void clear() {
    if (m_terminal && m_width > 0) std::fprintf(stderr, "\r%*s\r", static_cast<int>(m_width), "");
    m_width = 0;
    std::fflush(stderr);
  }

 private:
  bool m_terminal;
  std::size_t m_width = 0;
};

}  // namespace strided_report

#endif
