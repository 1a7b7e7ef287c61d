// The benchmarks' answer to --help or -h as the first argument: the usage line on stdout, exit status 0 (a
// benchmark that takes positional numbers would otherwise read "--help" as one and start a long run).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kope::bench {

inline void answer_help(int argc, char** argv, const char* usage) {
  if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::printf("usage: %s %s\n", argv[0], usage);
    std::exit(0);
  }
}

}  // namespace kope::bench
