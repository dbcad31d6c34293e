#ifndef STRIDED_TESTS_TEST_SESSION_HPP
#define STRIDED_TESTS_TEST_SESSION_HPP

// Kokkos' lifetime in a test program, with the thread count given as `--threads=N`, spelled the
// same under every Kokkos: Kokkos 3.4 knows only --kokkos-threads, Kokkos 4 only
// --kokkos-num-threads and ignores the old name with a warning, so a test that passed Kokkos' flag
// itself could silently run at the default count. The session passes the spelling of the Kokkos it
// was built against, prints the concurrency it got and fails when it is not the one asked for.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace strided_test {

/// The host-parallel space exists in this Kokkos (else every count but 1 is meaningless).
inline constexpr bool has_host_parallel_space =
    !std::is_same_v<Kokkos::DefaultHostExecutionSpace, Kokkos::Serial>;

class KokkosSession {
 public:
  /// Removes `--threads=N` from argv and initializes Kokkos with N threads on its host space.
  KokkosSession(int& argc, char* argv[]) {
    std::vector<char*> rest;
    for (int i = 0; i < argc; ++i) {
      if (i > 0 && std::strncmp(argv[i], "--threads=", 10) == 0)
        threads_ = std::atoi(argv[i] + 10);
      else
        rest.push_back(argv[i]);
    }
#if KOKKOS_VERSION >= 30700
    flag_ = "--kokkos-num-threads=" + std::to_string(threads_);
#else
    flag_ = "--kokkos-threads=" + std::to_string(threads_);
#endif
    if (threads_ > 0) rest.push_back(flag_.data());
    argc = static_cast<int>(rest.size());
    for (int i = 0; i < argc; ++i) argv[i] = rest[static_cast<std::size_t>(i)];
    argv[argc] = nullptr;
    Kokkos::initialize(argc, argv);
  }
  ~KokkosSession() {
    Kokkos::finalize();
  }
  KokkosSession(const KokkosSession&) = delete;
  KokkosSession& operator=(const KokkosSession&) = delete;

  /// Prints what the host space runs on; false (with the reason) when a requested count did not
  /// take effect.
  bool check_concurrency(std::FILE* out) const {
    const int got = Kokkos::DefaultHostExecutionSpace().concurrency();
    std::fprintf(out, "strided test: Kokkos %d.%d.%d, %s concurrency %d (asked %s)\n",
                 KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100,
                 Kokkos::DefaultHostExecutionSpace::name(), got,
                 threads_ > 0 ? std::to_string(threads_).c_str() : "nothing");
    if (threads_ <= 0 || got == threads_ || (!has_host_parallel_space && threads_ == 1))
      return true;
    std::fprintf(stderr, "strided test: asked for %d threads with %s, got concurrency %d\n",
                 threads_, flag_.c_str(), got);
    return false;
  }

 private:
  int threads_ = 0;
  std::string flag_;
};

}  // namespace strided_test

#endif
