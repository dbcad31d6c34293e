#ifndef STRIDED_TESTS_DEFAULT_OPTIONS_GUARD_HPP
#define STRIDED_TESTS_DEFAULT_OPTIONS_GUARD_HPP

#include <strided/strided.hpp>

namespace strided_test {

/// Restores the process's default options when it goes (a test may replace them).
struct DefaultOptionsGuard {
  strided::Options saved = strided::default_options();
  DefaultOptionsGuard() = default;
  DefaultOptionsGuard(const DefaultOptionsGuard&) = delete;
  DefaultOptionsGuard& operator=(const DefaultOptionsGuard&) = delete;
  ~DefaultOptionsGuard() { strided::set_default_options(saved); }
};

/// Default options whose planner settings make other tiles than PlannerOptions{} (tiny blocks
/// and tiles): folds that followed them would change their order.
inline strided::Options odd_planner_defaults(strided::Options o) {
  o.planner.block_bytes = 256;
  o.planner.max_tile_elements = 7;
  return o;
}

}  // namespace strided_test

#endif
