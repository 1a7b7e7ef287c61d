// kope-runner: the sandboxed process that loads a kernel and runs one case.
#include "kope/exec/runner.h"

using namespace kope::exec;

int main(int argc, char** argv) { return kope::exec::runner_main(argc, argv); }
