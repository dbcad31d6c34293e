#ifndef STRIDED_CORE_MACHINE_HPP
#define STRIDED_CORE_MACHINE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The host's caches and CPU, read once at run time: element-wise plans size their transposed
// tiles from the L2, and the report names the machine its figures hold for. Linux's sysfs is
// read first (the kernel's own view: on KVM guests glibc's sysconf has reported the host's
// 320 MiB L3 where sysfs says 32 MiB), then sysconf, then conservative defaults. The only
// reductions that read it are column sweeps, for the width of their output bands; no fold's
// tiles, and so no bit, depend on the machine.

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdio>
#include <cstring>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace strided::detail {

struct MachineInfo {
  std::size_t l1d_bytes = 32 * 1024;
  std::size_t l2_bytes = 256 * 1024;
  std::size_t l3_bytes = 0;  ///< 0: none found
  std::size_t line_bytes = 64;
  char cpu[128] = "unknown";  ///< model name
  bool from_sysfs = false;
};

/// "32K", "1024K", "32768K", "2M" or plain bytes, as sysfs writes cache sizes (0 when unreadable).
inline std::size_t parse_cache_size(const char* text) {
  std::size_t value = 0;
  for (; std::isdigit(static_cast<unsigned char>(*text)); ++text)
    value = value * 10 + static_cast<std::size_t>(*text - '0');
  if (*text == 'K' || *text == 'k') value *= 1024;
  if (*text == 'M' || *text == 'm') value *= 1024 * 1024;
  return value;
}

/// The first line of a file into `line` (without its newline; "" when it cannot be read).
/// C stdio, not iostreams: detecting the machine allocates nothing through operator new, so the
/// first kernel call that plans a transpose allocates nothing either.
inline void read_first_line(const char* path, char* line, int size) {
  line[0] = '\0';
  if (std::FILE* f = std::fopen(path, "r")) {
    if (!std::fgets(line, size, f)) line[0] = '\0';
    std::fclose(f);
  }
  line[std::strcspn(line, "\n")] = '\0';
}

/// The host as it is found now (detect_machine reads; machine() keeps the first answer).
inline MachineInfo detect_machine() {
  MachineInfo m;
  for (int index = 0; index < 8; ++index) {
    char path[96], level[16], type[32], size[32], line[32];
    const auto read = [&](const char* field, char* into, int length) {
      std::snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", index,
                    field);
      read_first_line(path, into, length);
    };
    read("level", level, sizeof level);
    if (level[0] == '\0') break;
    read("type", type, sizeof type);
    read("size", size, sizeof size);
    read("coherency_line_size", line, sizeof line);
    const std::size_t bytes = parse_cache_size(size), line_bytes = parse_cache_size(line);
    if (bytes == 0 || std::strcmp(type, "Instruction") == 0) continue;
    m.from_sysfs = true;
    if (std::strcmp(level, "1") == 0) m.l1d_bytes = bytes;
    if (std::strcmp(level, "2") == 0) m.l2_bytes = bytes;
    if (std::strcmp(level, "3") == 0) m.l3_bytes = bytes;
    if (line_bytes > 0) m.line_bytes = line_bytes;
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
  // "model name : AMD EPYC" (x86), "Model : ..." or "cpu model : ..." elsewhere.
  if (std::FILE* f = std::fopen("/proc/cpuinfo", "r")) {
    char text[512];
    while (std::fgets(text, sizeof text, f)) {
      char* colon = std::strchr(text, ':');
      if (!colon) continue;
      char* key_end = colon;
      while (key_end > text && (key_end[-1] == ' ' || key_end[-1] == '\t')) --key_end;
      const std::size_t key = static_cast<std::size_t>(key_end - text);
      const bool model = (key == 10 && std::strncmp(text, "model name", 10) == 0) ||
                         (key == 5 && std::strncmp(text, "Model", 5) == 0) ||
                         (key == 9 && std::strncmp(text, "cpu model", 9) == 0);
      if (!model) continue;
      const char* value = colon + 1;
      while (*value == ' ' || *value == '\t') ++value;
      std::snprintf(m.cpu, sizeof m.cpu, "%s", value);
      m.cpu[std::strcspn(m.cpu, "\n")] = '\0';
      if (m.cpu[0] == '\0') std::snprintf(m.cpu, sizeof m.cpu, "unknown");
      break;
    }
    std::fclose(f);
  }
  return m;
}

/// The host, detected once per process (thread-safe).
inline const MachineInfo& machine() {
  static const MachineInfo info = detect_machine();
  return info;
}

/// Rows of the transposed tiles of element-wise plans: with rows of `row_bytes`, a tile's source
/// and destination rows take at most half the L2, between 16 and 256 rows (1 MiB L2 and 512-byte
/// rows: 256 rows; a 256 KiB L2: 128). Unstreamed outputs keep a tile's lines in the L2 while its
/// bands run; streamed ones need only the source's. More rows make longer destination runs per
/// tile (256 rows of f64: 2 KiB), which streaming stores write best.
inline std::size_t transpose_tile_rows(std::size_t l2_bytes, std::size_t row_bytes) {
  const std::size_t budget = l2_bytes / 2 / 2;  // half the L2, source and destination rows
  std::size_t rows = 16;
  // (Divided, not multiplied: row_bytes comes from an option that takes any value.)
  while (rows < 256 && row_bytes > 0 && rows * 2 <= budget / row_bytes) rows *= 2;
  return rows;
}

/// Bytes of the host backends' per-thread stage of a map tile: a staged A + B^T tile of each
/// source (the planner caps those tiles to it: a larger one would not be staged at all) and the
/// line-aligned rows of staged gathers and streamed tiles.
inline constexpr std::size_t MAP_STAGE_BYTES = std::size_t(256) << 10;

/// Largest per-thread stage of the lanes of a column sweep (see axis_sweep_outputs).
inline constexpr std::size_t AXIS_STAGE_BYTES = std::size_t(512) << 10;

/// The most outputs of a sweep whatever the L2 (the stage's size): at least 16.
constexpr std::size_t axis_sweep_most(std::size_t lane_bytes) {
  const std::size_t most = AXIS_STAGE_BYTES / (16 * (lane_bytes > 0 ? lane_bytes : 1)) / 16 * 16;
  return most < 16 ? 16 : most;
}

/// Outputs per sweep of an axis reduction whose outputs each fold one strided run (column sums):
/// their 16 lanes of `lane_bytes` take at most half the L2 and AXIS_STAGE_BYTES, between 256 and
/// a multiple of 16 (1 MiB L2, f64: 4096 outputs, so each row of a 4096-wide matrix is read
/// whole; a 256 KiB L2: 1024). Rows read in 2 KiB pieces left column sums at half the speed of a
/// sequential read: each piece restarts the prefetchers and takes a new page.
inline std::size_t axis_sweep_outputs(std::size_t l2_bytes, std::size_t lane_bytes) {
  const std::size_t fit = l2_bytes / 2 / (16 * (lane_bytes > 0 ? lane_bytes : 1)) / 16 * 16;
  return std::min(std::max<std::size_t>(fit, 256), axis_sweep_most(lane_bytes));
}

/// Outputs per tile of such sweeps on `threads` host threads (0: not on a host space): one
/// sweep's worth of 8-byte lanes (the plan does not know the accumulator; a wider one sweeps a
/// tile in several bands), but no wider than an even share of `outputs` (rounded up to 16), so
/// that every thread sweeps; at least 256. Tiles do not change any output's bits.
inline std::size_t axis_sweep_tile(std::size_t outputs, int threads, std::size_t l2_bytes) {
  if (threads <= 0) return 256;
  const std::size_t t = static_cast<std::size_t>(threads);
  const std::size_t share = ((outputs + t - 1) / t + 15) / 16 * 16;
  return std::max<std::size_t>(256, std::min(axis_sweep_outputs(l2_bytes, 8), share));
}

}  // namespace strided::detail

#endif
