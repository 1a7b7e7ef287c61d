// kope: the command-line front of the workbench.
#include <iostream>

#include "kope/cli/cli_agent.h"
#include "kope/cli/cli.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  kope::agent::install_cli();
  return kope::run_cli(args, std::cout, std::cerr);
}
