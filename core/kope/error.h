// The one exception type kope throws for bad input: it says what failed, where, and what to do.
#pragma once

#include <stdexcept>
#include <string>

namespace kope {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kope
