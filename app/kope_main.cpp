// kope: the command-line front of the workbench (cli/).
#include <iostream>

#include "kope/cli/cli.h"

int main(int argc, char** argv) { return kope::run_cli({argv + 1, argv + argc}, std::cout, std::cerr); }
