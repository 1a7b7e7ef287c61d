// What compiler.cpp and precompiled.cpp share: the compiler's sandbox, and the precompiled prelude.
//
// A precompiled prelude: the #include lines that trusted sources (the library baselines) all start with, compiled
// once into a GCC precompiled header and shared between builds, workspaces and processes through a cache folder.
// ATen's headers take 4-7 s of a library build's 6-10 s; with the prelude precompiled, the build takes 2-3 s.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kope/exec/compiler.h"
#include "kope/exec/sandbox.h"

namespace kope::exec::detail {

// The compiler's sandbox without its command: the system folders, kope's include folder and a library's headers
// read-only, a clean environment, and the options' time, whole-tree memory and process limits.
SandboxSpec compiler_sandbox(const std::string& cxx_path, const std::filesystem::path& include_dir,
                             const CompileOptions& options);

// Whether every line of `prelude` is among the #include lines that `source` starts with (blank lines and //
// comments between them are skipped; the first other line ends the block). Only then may the prelude be
// included before the source: the source's own copies of those lines are then no-ops behind their guards.
bool starts_with_prelude(const std::string& source, const std::vector<std::string>& prelude);

struct Prelude {
  std::filesystem::path header;  // give it to the compiler with -include; its .gch lies beside it
  std::string why_not;           // set when there is no usable precompiled header (the build goes on without)
  std::shared_ptr<void> hold;    // a shared lock on it: keep it until the build that uses it is over
};

// The precompiled prelude for these flags (a kernel build's, without the link-only ones), built in the sandbox
// without kope's include folder (a copy per workspace: a prelude names system headers and the options' folders)
// under an exclusive lock on first use, rebuilt when any header it read has changed (size or time), else reused.
// Returns with the prelude locked shared in `hold`.
Prelude ensure_prelude(const std::string& cxx_path, const std::string& compiler_identity,
                       const std::vector<std::string>& flags, const CompileOptions& options);

}  // namespace kope::exec::detail
