#ifndef STRIDED_CORE_ERROR_HPP
#define STRIDED_CORE_ERROR_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// strided::Error and its codes (public through <strided/error.hpp>); Kokkos-free, so the planner
// layers below the public headers report bad input the same way.

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace strided {

/// What went wrong; every public function reports bad input through `Error` with one of these.
enum class ErrorCode {
  RankMismatch,
  ShapeMismatch,
  InvalidAxis,
  InvalidArgument,
  StrideLengthMismatch,
  OffsetOverflow,
  NonSquare,
  NonInjectiveOutput,
  OverlappingInputOutput,
  PlanMismatch,  ///< a kept plan executed with operands of other layouts
  MpiError,      ///< an MPI call failed, or MPI is not initialized (strided/mpi.hpp)
};

inline const char* to_string(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::RankMismatch:
      return "RankMismatch";
    case ErrorCode::ShapeMismatch:
      return "ShapeMismatch";
    case ErrorCode::InvalidAxis:
      return "InvalidAxis";
    case ErrorCode::InvalidArgument:
      return "InvalidArgument";
    case ErrorCode::StrideLengthMismatch:
      return "StrideLengthMismatch";
    case ErrorCode::OffsetOverflow:
      return "OffsetOverflow";
    case ErrorCode::NonSquare:
      return "NonSquare";
    case ErrorCode::NonInjectiveOutput:
      return "NonInjectiveOutput";
    case ErrorCode::OverlappingInputOutput:
      return "OverlappingInputOutput";
    case ErrorCode::PlanMismatch:
      return "PlanMismatch";
    case ErrorCode::MpiError:
      return "MpiError";
  }
  return "Unknown";
}

/// Thrown on the host before anything is written. The message names the function and the values.
class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& what)
      : std::runtime_error(std::string(to_string(code)) + ": " + what), m_code(code) {}
  ErrorCode code() const noexcept { return m_code; }

 private:
  ErrorCode m_code;
};

namespace detail {

/// Builds the message from any streamable pieces and throws; kept out of line of the hot path.
template <class... Parts>
[[noreturn]] void throw_error(ErrorCode code, const char* function, Parts&&... parts) {
  std::ostringstream message;
  message << "strided::" << function << ": ";
  (message << ... << std::forward<Parts>(parts));
  throw Error(code, message.str());
}

}  // namespace detail
}  // namespace strided

#endif
