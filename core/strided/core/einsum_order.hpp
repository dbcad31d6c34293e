#ifndef STRIDED_CORE_EINSUM_ORDER_HPP
#define STRIDED_CORE_EINSUM_ORDER_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The N-ary einsum front end's plan: its spec parsed, and a greedy pairwise contraction order
// (each step contracts the pair whose result is smallest), backend-free.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "strided/core/error.hpp"

namespace strided::detail {

/// "ij,jk,kl->il": the inputs' labels and the output's. Errors: InvalidArgument (a malformed
/// spec, a label repeated inside one operand, an output label in no input).
inline std::vector<std::string> parse_einsum(std::string_view spec, std::string& output) {
  std::vector<std::string> inputs(1);
  output.clear();
  bool in_output = false;
  for (std::size_t i = 0; i < spec.size(); ++i) {
    const char ch = spec[i];
    if (ch == ' ') continue;
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
      (in_output ? output : inputs.back()).push_back(ch);
    } else if (ch == ',' && !in_output) {
      inputs.emplace_back();
    } else if (ch == '-' && !in_output && i + 1 < spec.size() && spec[i + 1] == '>') {
      in_output = true;
      ++i;
    } else {
      throw_error(ErrorCode::InvalidArgument, "einsum", "spec \"", spec,
                  "\" is not of the form \"ij,jk,kl->il\" (unexpected '", ch, "' at ", i, ")");
    }
  }
  if (!in_output)
    throw_error(ErrorCode::InvalidArgument, "einsum", "spec \"", spec, "\" has no \"->\"");
  std::vector<const std::string*> all;
  for (const auto& in : inputs) all.push_back(&in);
  all.push_back(&output);
  for (const std::string* labels : all)
    for (std::size_t i = 0; i < labels->size(); ++i)
      if (labels->find((*labels)[i], i + 1) != std::string::npos)
        throw_error(ErrorCode::InvalidArgument, "einsum", "label '", (*labels)[i],
                    "' repeats in one operand of \"", spec, "\" (diagonals are not supported)");
  for (char ch : output) {
    bool found = false;
    for (const auto& in : inputs) found = found || in.find(ch) != std::string::npos;
    if (!found)
      throw_error(ErrorCode::InvalidArgument, "einsum", "output label '", ch,
                  "' is in no input of \"", spec, "\"");
  }
  return inputs;
}

/// One pairwise step: operands `left` and `right` (inputs are 0..N-1, step s's result is N+s)
/// contracted into `labels`.
struct EinsumStep {
  std::size_t left, right;
  std::string labels;
};

/// Greedy order: while more than two operands remain, contract the pair with the smallest
/// result (ties: the first pair in input order); the last pair gives the output. `extent(ch)`
/// gives a label's extent. Each result keeps the labels some other operand or the output needs,
/// in the order left's labels, then right's.
template <class ExtentOf>
std::vector<EinsumStep> greedy_einsum_order(const std::vector<std::string>& inputs,
                                            const std::string& output, const ExtentOf& extent) {
  std::vector<std::string> live = inputs;  // labels per operand id
  std::vector<std::size_t> ids;            // operands not yet contracted
  for (std::size_t i = 0; i < inputs.size(); ++i) ids.push_back(i);
  const auto kept_labels = [&](std::size_t a, std::size_t b) {
    std::string kept;
    const auto needed = [&](char ch) {
      if (output.find(ch) != std::string::npos) return true;
      for (std::size_t id : ids)
        if (id != a && id != b && live[id].find(ch) != std::string::npos) return true;
      return false;
    };
    for (char ch : live[a] + live[b])
      if (kept.find(ch) == std::string::npos && needed(ch)) kept.push_back(ch);
    return kept;
  };
  std::vector<EinsumStep> steps;
  while (ids.size() > 2) {
    std::size_t best_i = 0, best_j = 1;
    double best = -1;
    for (std::size_t i = 0; i < ids.size(); ++i)
      for (std::size_t j = i + 1; j < ids.size(); ++j) {
        double size = 1;
        for (char ch : kept_labels(ids[i], ids[j])) size *= static_cast<double>(extent(ch));
        if (best < 0 || size < best) {
          best = size;
          best_i = i;
          best_j = j;
        }
      }
    const std::size_t a = ids[best_i], b = ids[best_j];
    steps.push_back({a, b, kept_labels(a, b)});
    live.push_back(steps.back().labels);
    ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(best_j));
    ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(best_i));
    ids.push_back(live.size() - 1);
  }
  if (ids.size() == 2) steps.push_back({ids[0], ids[1], output});
  return steps;
}

}  // namespace strided::detail

#endif
