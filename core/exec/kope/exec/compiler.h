// Builds a kernel source into a shared object with the system compiler, caching by content. The compiler runs in
// the sandbox: it sees the system's folders, kope's include folder and its own job folder (source read-only,
// output writable), nothing else, under time, whole-tree memory and process limits, with a clean environment.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "kope/model/build_types.h"

namespace kope {
class CancelToken;
}

namespace kope::exec {

struct CompileOptions {
  std::string cxx;                        // empty: $CXX, else c++
  std::vector<std::string> flags = {"-O2"};  // before the source's own `// kope:cxxflags` line
  std::vector<std::string> defines;       // NAME or NAME=VALUE
  std::vector<std::string> include_dirs;  // extra -I folders (a library baseline's headers)
  std::vector<std::string> link;          // extra -l libraries, after the source (a library baseline's)
  double timeout_seconds = 120.0;         // wall clock, and CPU time of the compiler's whole tree
  uint64_t memory_bytes = 2ull << 30;     // memory of the compiler's whole tree (cc1plus, as, ld); 0: none
  uint64_t max_processes = 64;            // processes and threads of that tree; 0: none
  const CancelToken* cancel = nullptr;    // set: the compiler's tree is killed within ~20 ms, the result is cancelled
  // `#include ...` lines that sources start with (the library baselines' ATen headers), of system headers or
  // `include_dirs`, never kope's include folder (a copy per workspace). A source whose leading include lines hold
  // them all is built on a precompiled header of them, made once in `prelude_cache` (empty:
  // default_prelude_cache()) and shared by every build with the same compiler and flags. It is rebuilt when a
  // header it read changes. Where it cannot be made, the build goes on without it and its log says why.
  std::vector<std::string> prelude;
  std::filesystem::path prelude_cache;
};

// Where precompiled preludes are kept: $KOPE_CACHE_DIR/pch, else $XDG_CACHE_HOME/kope/pch, else
// $HOME/.cache/kope/pch; empty when none of them is set. One prelude takes about 250 MB for ATen's headers.
std::filesystem::path default_prelude_cache();

// Flags a kernel may ask for with a `// kope:cxxflags ...` line in its first 20 lines: -O*, -std=c++17/20/23,
// -pthread, -D/-U of plain names, -W warnings, -m target options, and -f optimisation and code generation
// families; never a flag that names, reads or writes a file (-fdump-*, -fopt-info*=, -fprofile*, -fplugin*,
// -save-temps, -I, -include, @file, ...). Throws kope::Error naming the flag and the line when one is not allowed.
std::vector<std::string> flag_directives(const std::string& source, const std::string& display_name);

// `file:line:col: severity: message` lines of gcc/clang output.
std::vector<Diagnostic> parse_diagnostics(const std::string& compiler_output);

// `display_name` is what diagnostics call the file. Throws kope::Error only for a disallowed flag.
BuildResult compile_kernel(const std::string& source, const std::string& display_name,
                             const std::filesystem::path& build_dir, const std::filesystem::path& include_dir,
                             const CompileOptions& options);

}  // namespace kope::exec
