// kope: the command-line front of the workbench (cli/).
#include <iostream>

#include "kope/cli/cli.h"

using namespace kope::cli;

int main(int argc, char** argv) { return kope::cli::run_cli({argv + 1, argv + argc}, std::cout, std::cerr); }
