#ifndef STRIDED_TESTS_EXPECT_ERROR_HPP
#define STRIDED_TESTS_EXPECT_ERROR_HPP

#include <gtest/gtest.h>

#include <strided/strided.hpp>
#include <string>

namespace strided_test {

/// Runs `f`, expects an strided::Error with `code` whose message names `function`.
template <class F>
void expect_error(F&& f, strided::ErrorCode code, const std::string& function) {
  try {
    f();
    ADD_FAILURE() << "expected strided::Error " << strided::to_string(code) << " from " << function;
  } catch (const strided::Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(std::string(e.what()).find("strided::" + function), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(strided::to_string(code)), std::string::npos) << e.what();
  }
}

}  // namespace strided_test

#endif
