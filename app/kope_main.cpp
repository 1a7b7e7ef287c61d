// kope: the command-line front of the workbench.
#include <iostream>

#include "kope/cli.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return kope::run_cli(args, std::cout, std::cerr);
}
