#ifndef STRIDED_EINSUM_HPP
#define STRIDED_EINSUM_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_EINSUM
#endif

// The N-ary einsum front end of the Strided::contract component:
//   einsum(exec, "ij,jk,kl->il", out, a, b, c)   out = the contraction of all inputs
//   einsum("ij,jk,kl->il", out, a, b, c)         on DefaultHostExecutionSpace
// One input: its summed labels go through sum_axes, the rest is a permuted copy. Two: one
// contract() call. More: pairwise contractions in a greedy order (at each step the pair with
// the smallest result), through intermediates allocated for the call.
// Errors (before out is written): InvalidArgument (a malformed spec, a label repeated in one
// operand, an output label in no input, as many label lists as operands given), RankMismatch,
// ShapeMismatch, NonInjectiveOutput, OverlappingInputOutput.
// Determinism: the order and every step depend on the shapes only, so the bits are those of
// contract(): the same at every thread count and on every host space.

#include <Kokkos_Core.hpp>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "strided/contract.hpp"
#include "strided/core/einsum_order.hpp"
#include "strided/strided_array.hpp"

namespace strided {

namespace detail {

/// Label extents of all operands, checked to agree; ranks checked against the label counts.
template <class OV, class... IV>
std::map<char, std::size_t> einsum_extents(const std::vector<std::string>& inputs,
                                           const std::string& output, const OV& out,
                                           const IV&... views) {
  std::map<char, std::size_t> extents;
  const auto add = [&](const std::string& labels, const auto& v, const char* which) {
    if (labels.size() != v.rank())
      throw_error(ErrorCode::RankMismatch, "einsum", "the ", which, " has ", labels.size(),
                  " labels (\"", labels, "\") but rank ", v.rank());
    for (std::size_t k = 0; k < labels.size(); ++k) {
      const auto [at, fresh] = extents.emplace(labels[k], v.extent(k));
      if (!fresh && at->second != v.extent(k))
        throw_error(ErrorCode::ShapeMismatch, "einsum", "label '", labels[k], "' has extents ",
                    at->second, " and ", v.extent(k));
    }
  };
  std::size_t k = 0;
  (add(inputs[k++], views, "input"), ...);
  add(output, out, "output");
  return extents;
}

/// One input: sum its labels that the output lacks, straight into the output's axes.
template <class Exec, class OV, class IV>
void einsum_one(const Exec& exec, const std::string& input, const std::string& output,
                const OV& out, const IV& in) {
  std::vector<std::size_t> summed, perm;
  for (std::size_t k = 0; k < input.size(); ++k)
    if (output.find(input[k]) == std::string::npos) summed.push_back(k);
  // out's axes in the order the input's kept axes come.
  for (char ch : input)
    if (output.find(ch) != std::string::npos) perm.push_back(output.find(ch));
  const auto target = out.permute(perm);
  if (summed.empty())
    copy_into(exec, target, in);
  else
    sum_axes(exec, target, in, summed, fixed_fold_options());
}

}  // namespace detail

/// out = the contraction of `inputs` by `spec` (einsum notation, one label list per input).
template <class Exec, class Out, class... In, detail::enable_if_exec<Exec> = 0>
void einsum(const Exec& exec, std::string_view spec, const Out& out, const In&... inputs) {
  static_assert(sizeof...(In) >= 1, "strided::einsum: give at least one input");
  const auto& o = detail::as_view(out);
  using OV = std::decay_t<decltype(o)>;
  using T = typename OV::value_type;
  using Memory = typename OV::memory_space;
  static_assert(
      (std::is_same_v<typename std::decay_t<decltype(detail::as_view(inputs))>::value_type, T> &&
       ...),
      "strided::einsum: every operand must have the output's element type");
  static_assert(
      (std::is_same_v<typename std::decay_t<decltype(detail::as_view(inputs))>::memory_space,
                      Memory> &&
       ...),
      "strided::einsum: every operand must live in the output's memory space");
  compat::ScopedRegion region(detail::labels::einsum);
  std::string output;
  const std::vector<std::string> labels = detail::parse_einsum(spec, output);
  if (labels.size() != sizeof...(In))
    detail::throw_error(ErrorCode::InvalidArgument, "einsum", "spec \"", spec, "\" has ",
                        labels.size(), " inputs but ", sizeof...(In), " operands were given");
  const auto extents = detail::einsum_extents(labels, output, o, detail::as_view(inputs)...);
  detail::check_output("einsum", o);
  int index = 0;
  ((detail::shares_memory(detail::memory_of(o), detail::memory_of(detail::as_view(inputs)))
        ? detail::throw_error(ErrorCode::OverlappingInputOutput, "einsum", "input ", index,
                              " shares memory with the output")
        : void(++index)),
   ...);

  if constexpr (sizeof...(In) == 1) {
    detail::einsum_one(exec, labels[0], output, o, detail::as_view(inputs)...);
  } else if constexpr (sizeof...(In) == 2) {
    contract(exec, labels[0] + "," + labels[1] + "->" + output, o, inputs...);
  } else {
    // Operands as plain views of const T: an input with an element op is copied first.
    using Plain = StridedView<const T, Identity, Memory>;
    std::vector<StridedArray<T, Memory>> owned;  // the intermediates, row-major
    const auto dense_view = [&](const std::string& l) {
      std::vector<std::size_t> e;
      for (char ch : l) e.push_back(extents.at(ch));
      owned.push_back(StridedArray<T, Memory>::row_major(e));
      return owned.back().view();
    };
    std::vector<Plain> operands;
    std::size_t k = 0;
    const auto take = [&](const auto& v) {
      if constexpr (std::is_same_v<typename std::decay_t<decltype(v)>::op_type, Identity>) {
        operands.push_back(Plain(v));
      } else {
        const auto copy = dense_view(labels[k]);
        copy_into(exec, copy, v);
        operands.push_back(Plain(copy));
      }
      ++k;
    };
    (take(detail::as_view(inputs)), ...);
    std::vector<std::string> names = labels;
    const auto steps =
        detail::greedy_einsum_order(labels, output, [&](char ch) { return extents.at(ch); });
    for (std::size_t s = 0; s < steps.size(); ++s) {
      const detail::EinsumStep& step = steps[s];
      const std::string pair = names[step.left] + "," + names[step.right] + "->" + step.labels;
      if (s + 1 == steps.size()) {
        contract(exec, pair, o, operands[step.left], operands[step.right]);
      } else {
        const auto result = dense_view(step.labels);
        contract(exec, pair, result, operands[step.left], operands[step.right]);
        operands.push_back(Plain(result));
        names.push_back(step.labels);
      }
    }
  }
}

template <class Out, class... In, detail::enable_if_operand<Out> = 0>
void einsum(std::string_view spec, const Out& out, const In&... inputs) {
  einsum(detail::default_host(), spec, out, inputs...);
}

}  // namespace strided

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_EINSUM
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_EINSUM
#endif

#endif
