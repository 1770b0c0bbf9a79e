#pragma once
// The error a call throws, for tests that look into it: rejection(call) returns the InvalidOption (or, with
// rejection<E>, the E) it throws, and fails the test when it throws none.
#include <gtest/gtest.h>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::test {

template <class E = InvalidOption, class F>
E rejection(F&& call) {
  try {
    call();
  } catch (const E& e) {
    return e;
  }
  ADD_FAILURE() << "nothing thrown of the type expected";
  return E("", "", "");
}

}  // namespace rmtsweep::test
