// The hand-written argument parser of `kope`, shared by the command files (cli.cpp, cli_memory.cpp).
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "kope/base/error.h"

namespace kope {

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;
  std::set<std::string> flags;

  bool has(const std::string& f) const { return flags.count(f) > 0; }
  std::optional<std::string> get(const std::string& k) const {
    auto it = options.find(k);
    return it == options.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
};

// Bad usage: exit status 2 with the message.
class UsageError : public Error {
 public:
  using Error::Error;
};

Args parse_args(const std::vector<std::string>& argv);
int int_option(const Args& a, const std::string& key, int fallback, int lo, int hi);
std::vector<std::string> split_list(const std::string& s, char sep = ',');

// `kope memory ...` (core/cli_memory.cpp).
int cmd_memory(const Args& a, std::ostream& out, std::ostream& err);

}  // namespace kope
