#ifndef STRIDED_CORE_MACHINE_HPP
#define STRIDED_CORE_MACHINE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The host's caches and CPU, read once at run time: element-wise plans size their transposed
// tiles from the L2, and the report names the machine its figures hold for. Linux's sysfs is
// read first (the kernel's own view: on KVM guests glibc's sysconf has reported the host's
// 320 MiB L3 where sysfs says 32 MiB), then sysconf, then conservative defaults. Reductions
// never read this: their tiles, and so their bits, do not depend on the machine.

#include <cctype>
#include <cstddef>
#include <fstream>
#include <string>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace strided::detail {

struct MachineInfo {
  std::size_t l1d_bytes = 32 * 1024;
  std::size_t l2_bytes = 256 * 1024;
  std::size_t l3_bytes = 0;  ///< 0: none found
  std::size_t line_bytes = 64;
  std::string cpu;  ///< model name, or "unknown"
  bool from_sysfs = false;
};

/// "32K", "1024K", "32768K", "2M" or plain bytes, as sysfs writes cache sizes (0 when unreadable).
inline std::size_t parse_cache_size(const std::string& text) {
  std::size_t value = 0, k = 0;
  while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k])))
    value = value * 10 + static_cast<std::size_t>(text[k++] - '0');
  if (k < text.size() && (text[k] == 'K' || text[k] == 'k')) value *= 1024;
  if (k < text.size() && (text[k] == 'M' || text[k] == 'm')) value *= 1024 * 1024;
  return value;
}

/// First line of a file ("" when it cannot be read).
inline std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (in) std::getline(in, line);
  return line;
}

/// The host as it is found now (detect_machine reads; machine() keeps the first answer).
inline MachineInfo detect_machine() {
  MachineInfo m;
  for (int index = 0; index < 8; ++index) {
    const std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    const std::string level = read_first_line(dir + "level");
    if (level.empty()) break;
    const std::string type = read_first_line(dir + "type");
    const std::size_t size = parse_cache_size(read_first_line(dir + "size"));
    const std::size_t line = parse_cache_size(read_first_line(dir + "coherency_line_size"));
    if (size == 0 || type == "Instruction") continue;
    m.from_sysfs = true;
    if (level == "1") m.l1d_bytes = size;
    if (level == "2") m.l2_bytes = size;
    if (level == "3") m.l3_bytes = size;
    if (line > 0) m.line_bytes = line;
  }
#if defined(_SC_LEVEL2_CACHE_SIZE) && defined(_SC_LEVEL1_DCACHE_SIZE)
  if (!m.from_sysfs) {
    const long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (l1 > 0) m.l1d_bytes = static_cast<std::size_t>(l1);
    if (l2 > 0) m.l2_bytes = static_cast<std::size_t>(l2);
#if defined(_SC_LEVEL3_CACHE_SIZE)
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l3 > 0) m.l3_bytes = static_cast<std::size_t>(l3);
#endif
  }
#endif
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; cpuinfo && std::getline(cpuinfo, line);) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = line.substr(0, line.find_last_not_of(" \t", colon - 1) + 1);
    if (key == "model name" || key == "Model" || key == "cpu model") {
      m.cpu = line.substr(line.find_first_not_of(" \t", colon + 1));
      break;
    }
  }
  if (m.cpu.empty()) m.cpu = "unknown";
  return m;
}

/// The host, detected once per process (thread-safe).
inline const MachineInfo& machine() {
  static const MachineInfo info = detect_machine();
  return info;
}

/// Rows of the transposed tiles of element-wise plans: with rows of `row_bytes`, a tile's source
/// and destination rows take at most half the L2, between 16 and 128 rows (1 MiB L2 and 1 KiB
/// rows: 128 rows; a 256 KiB L2: 64). Unstreamed outputs keep a tile's lines in the L2 while its
/// bands run; streamed ones need only the source's.
inline std::size_t transpose_tile_rows(std::size_t l2_bytes, std::size_t row_bytes) {
  const std::size_t budget = l2_bytes / 2 / 2;  // half the L2, source and destination rows
  std::size_t rows = 16;
  while (rows < 128 && (rows * 2) * row_bytes <= budget) rows *= 2;
  return rows;
}

}  // namespace strided::detail

#endif
