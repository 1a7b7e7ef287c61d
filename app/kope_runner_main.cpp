// kope-runner: the sandboxed process that loads a kernel and runs one case.
#include "kope/exec/runner.h"

int main(int argc, char** argv) { return kope::runner_main(argc, argv); }
