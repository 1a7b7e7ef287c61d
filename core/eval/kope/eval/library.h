// Library baselines (issue 11, item 1): the operator implementation people already use on a device (on the CPU,
// ATen through libtorch), named by the task, built like a kernel with extra headers and libraries.
#pragma once

#include <string>
#include <vector>

#include "kope/exec/compiler.h"
#include "kope/eval/evaluator.h"
#include "kope/model/task.h"

namespace kope::eval {

// The task's library implementation on `device`, or null when the task names none there (task.library_why,
// when set, says why).
const LibraryImpl* library_for(const Task& task, const std::string& device);

// The system headers every shipped ATen baseline starts with (not kope_kernel.h, whose copy is per workspace):
// precompiled once per machine (exec::CompileOptions::prelude),
// they take a library build from 6-10 s to 2-3 s. A source that does not start with them all is built as it is.
const std::vector<std::string>& library_prelude();

// -O2 plus the implementation's include folders and link libraries, and library_prelude().
exec::CompileOptions library_compile_options(const LibraryImpl& lib);

// The candidate flags that build it through the evaluator's candidate path: -O2, -I..., -Wl,--no-as-needed -l...
std::vector<std::string> library_candidate_flags(const LibraryImpl& lib);

// Options that judge it as the candidate: its flags and prelude, and no library baseline beside it.
void as_library_candidate(const LibraryImpl& lib, EvalOptions& options);

// Builds it into paths.build (cached by content, like kernels).
BuildResult build_library(const Task& task, const LibraryImpl& lib, const exec::EvalPaths& paths);

// Evaluates the library implementation AS A CANDIDATE: its correctness against the fp64 golden and its speedup
// over the naive baseline, through the unchanged evaluator (the link libraries ride in the candidate's flags).
// Throws kope::Error when the task names no library implementation for `device`.
EvalReport evaluate_library(Evaluator& ev, const Task& task, const std::string& device, EvalOptions options);

}  // namespace kope::eval
