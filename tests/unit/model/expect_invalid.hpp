#pragma once
// Shared by the model tests: asserts that a call throws InvalidOption naming an option and value.
#include <gtest/gtest.h>

#include <string>

#include "rmtsweep/common/error.hpp"

template <typename Call>
void expect_invalid_option(Call&& call, const std::string& option, const std::string& value) {
  try {
    call();
    ADD_FAILURE() << "expected InvalidOption for --" << option << " '" << value << "'";
  } catch (const rmtsweep::InvalidOption& e) {
    EXPECT_EQ(e.option(), option);
    EXPECT_EQ(e.value(), value);
    EXPECT_NE(e.allowed().find("allowed"), std::string::npos) << e.what();
  }
}
