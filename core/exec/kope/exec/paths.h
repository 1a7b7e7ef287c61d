// Where an evaluation keeps builds, goldens and scratch folders, and where kope-runner is.
#pragma once

#include <filesystem>

namespace kope::exec {

// Where an evaluation keeps builds, cached golden outputs and scratch job folders.
struct EvalPaths {
  std::filesystem::path build, golden, jobs, include;
  std::filesystem::path runner;  // the kope-runner executable

  // Lays out folders under `root` and writes the kernel header there. Throws kope::Error.
  static EvalPaths under(const std::filesystem::path& root);
};

// kope-runner: $KOPE_RUNNER, else beside the running executable, else the build tree's.
std::filesystem::path find_runner();

}  // namespace kope::exec
