#include "kope/eval/library.h"

#include "kope/base/error.h"

using namespace kope::exec;

namespace kope::eval {

const LibraryImpl* library_for(const Task& task, const std::string& device) {
  auto it = task.library.find(device);
  if (it == task.library.end() || !it->second) return nullptr;
  return &*it->second;
}

const std::vector<std::string>& library_prelude() {
  static const std::vector<std::string> lines = {
      "#include <ATen/core/Tensor.h>", "#include <ATen/Parallel.h>", "#include <ATen/TensorOperators.h>",
      "#include <ATen/ops/from_blob.h>", "#include <cstdio>", "#include <exception>"};
  return lines;
}

CompileOptions library_compile_options(const LibraryImpl& lib) {
  CompileOptions o;
  o.flags = {"-O2"};
  o.include_dirs = lib.include_dirs;
  o.link = lib.link;
  o.timeout_seconds = 300.0;  // ATen's headers are heavy on a busy machine
  o.prelude = library_prelude();
  return o;
}

std::vector<std::string> library_candidate_flags(const LibraryImpl& lib) {
  // The candidate's flags come before the source on the compiler's command line, so the libraries must be kept
  // even though nothing needs them yet at that point.
  std::vector<std::string> f = {"-O2", "-Wl,--no-as-needed"};
  for (const auto& d : lib.include_dirs) f.push_back("-I" + d);
  for (const auto& l : lib.link) f.push_back("-l" + l);
  return f;
}

void as_library_candidate(const LibraryImpl& lib, EvalOptions& options) {
  options.cxxflags = library_candidate_flags(lib);
  options.prelude = library_prelude();
  options.library = false;  // judged as the candidate, it is not also the baseline
}

BuildResult build_library(const Task& task, const LibraryImpl& lib, const EvalPaths& paths) {
  return compile_kernel(lib.source, task.name + ".library.cpp", paths.build, paths.include,
                        library_compile_options(lib));
}

EvalReport evaluate_library(Evaluator& ev, const Task& task, const std::string& device, EvalOptions options) {
  const LibraryImpl* lib = library_for(task, device);
  if (!lib) {
    auto it = task.library.find(device);
    throw Error("task '" + task.name + "' names no library implementation for device \"" + device + "\"" +
                (it != task.library.end() && !task.library_why.empty() ? ": " + task.library_why : std::string()));
  }
  as_library_candidate(*lib, options);
  return ev.evaluate(task, lib->source, task.name + ".library.cpp", options);
}

}  // namespace kope::eval
