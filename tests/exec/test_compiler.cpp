#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "kope/exec/compiler.h"
#include "kope/base/error.h"
#include "kope/exec/paths.h"
#include "kope/exec/sandbox.h"
#include "test_support.h"

using namespace kope::exec;

using namespace kope;
namespace fs = std::filesystem;

namespace {

class CompilerTest : public ::testing::Test {
 protected:
  test::TempDir dir;
  EvalPaths paths = EvalPaths::under(dir.path());
};

}  // namespace

TEST_F(CompilerTest, BuildsASharedObjectAndCachesIt) {
  std::string src = test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;");
  BuildResult r = compile_kernel(src, "k.cpp", paths.build, paths.include, {});
  ASSERT_TRUE(r.ok) << r.error << r.log;
  EXPECT_FALSE(r.cached);
  EXPECT_TRUE(std::filesystem::exists(r.artifact));
  BuildResult again = compile_kernel(src, "k.cpp", paths.build, paths.include, {});
  EXPECT_TRUE(again.ok);
  EXPECT_TRUE(again.cached);
  EXPECT_EQ(again.artifact, r.artifact);
  CompileOptions o3;
  o3.flags = {"-O3"};
  EXPECT_NE(compile_kernel(src, "k.cpp", paths.build, paths.include, o3).artifact, r.artifact);
}

TEST_F(CompilerTest, ErrorsCarryTheUsersFileAndLine) {
  std::string src = "#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) {\n  return undeclared_thing;\n}\n";
  BuildResult r = compile_kernel(src, "my_kernel.cpp", paths.build, paths.include, {});
  ASSERT_FALSE(r.ok);
  ASSERT_FALSE(r.diagnostics.empty()) << r.log;
  const Diagnostic& d = r.diagnostics.front();
  EXPECT_EQ(d.file, "my_kernel.cpp");
  EXPECT_EQ(d.line, 3);
  EXPECT_EQ(d.severity, "error");
  EXPECT_NE(d.message.find("undeclared_thing"), std::string::npos);
  EXPECT_NE(r.error.find("my_kernel.cpp:3:"), std::string::npos) << r.error;
}

TEST_F(CompilerTest, UndefinedSymbolsFailAtLinkTime) {
  std::string src = test::affine_kernel("extern void no_such_function(); no_such_function();");
  BuildResult r = compile_kernel(src, "k.cpp", paths.build, paths.include, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("no_such_function"), std::string::npos) << r.log;
}

TEST(CompilerFlags, DirectivesAreReadAndChecked) {
  EXPECT_EQ(flag_directives("// kope:cxxflags -O3 -march=native -ffast-math\nint x;", "k.cpp"),
            (std::vector<std::string>{"-O3", "-march=native", "-ffast-math"}));
  EXPECT_TRUE(flag_directives("int x;", "k.cpp").empty());
  try {
    flag_directives("// thought: x\n// kope:cxxflags -O2 -o/etc/passwd\n", "k.cpp");
    FAIL();
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("k.cpp:2"), std::string::npos) << m;
    EXPECT_NE(m.find("-o/etc/passwd"), std::string::npos) << m;
  }
  EXPECT_THROW(flag_directives("// kope:cxxflags -fplugin=evil.so", "k.cpp"), Error);
  EXPECT_THROW(flag_directives("// kope:cxxflags -Wl,-rpath,/tmp", "k.cpp"), Error);
}

// A directive counts only where the compiler itself sees a line comment at the start of a line: text that merely
// looks like one inside another comment, a string or a raw string, or after code, is not obeyed.
TEST(CompilerFlags, DirectivesHiddenInOtherTextAreNotObeyed) {
  for (const char* src : {
           "/* notes\n// kope:cxxflags -O3\n*/ int x;",
           "/* one line */ /* and another\n   // kope:cxxflags -O3 */",
           "// a comment continued \\\n// kope:cxxflags -O3\n",
           "const char* s = \"// kope:cxxflags -O3\";",
           "const char* s = \"line \\\n// kope:cxxflags -O3\";",
           "const char* s = R\"x(\n// kope:cxxflags -O3\n)x\";",
           "int y; // kope:cxxflags -O3",
           "// see the note: // kope:cxxflags -O3",
       })
    EXPECT_TRUE(flag_directives(src, "k.cpp").empty()) << src;
  // Blanks before it are fine, and a literal or comment that ends before it does not hide it.
  EXPECT_EQ(flag_directives("  \t// kope:cxxflags -O3", "k.cpp"), std::vector<std::string>{"-O3"});
  EXPECT_EQ(flag_directives("/* a */ int c = '\"';\nconst char* s = R\"(x)\";\n// kope:cxxflags -O1", "k.cpp"),
            std::vector<std::string>{"-O1"});
  EXPECT_EQ(flag_directives("int n = 1'000;\n// kope:cxxflags -O1", "k.cpp"), std::vector<std::string>{"-O1"});
}

TEST(CompilerDiagnostics, ParsesGccLines) {
  auto d = parse_diagnostics("k.cpp: In function 'int f()':\nk.cpp:12:7: warning: unused variable 'q'\n"
                             "k.cpp:14:1: error: expected ';' before '}' token\n");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].severity, "warning");
  EXPECT_EQ(d[1].line, 14);
  EXPECT_EQ(d[1].column, 1);
}

TEST(CompilerFlags, FlagsThatNameOrWriteFilesAreRefusedWithTheFlagAndLine) {
  for (const char* f : {"-fopt-info-all=makefile", "-fopt-info", "-fdump-tree-all", "-fdump-rtl-expand",
                        "-fprofile-generate", "-fprofile-use=x", "-fplugin=evil.so", "-fplugin-arg-x-y=z",
                        "-fstack-usage", "-fcallgraph-info", "-save-temps", "-save-temps=obj",
                        "-fdebug-prefix-map=a=b", "-ffile-prefix-map=a=b", "-fmacro-prefix-map=a=b",
                        "-fsanitize-blacklist=x", "-fsanitize-ignorelist=x", "-specs=x", "-wrapper", "@flags.txt",
                        "-include", "-imacros", "-iquote", "-isystem", "-idirafter", "-I/tmp", "-Iinclude", "-L/tmp",
                        "-lfoo", "-B/tmp", "-o", "-x", "-MF", "-MD", "-Wl,-rpath,x", "-Wa,-adhln=x", "-Wp,-MD,x",
                        "-fuse-ld=gold", "-flto", "-ftest-coverage", "-fsave-optimization-record",
                        "-fmodule-mapper=x", "-frecord-gcc-switches", "-fdiagnostics-format=json-file",
                        "-DX=/etc/passwd", "--sysroot=/", "-fauto-profile=x", "-fsomething-unknown"}) {
    const std::string src = "// thought: try it\n// kope:cxxflags -O3 " + std::string(f) + "\nint x;\n";
    try {
      flag_directives(src, "evil.cpp");
      ADD_FAILURE() << f << " was accepted";
    } catch (const Error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("evil.cpp:2:"), std::string::npos) << m;
      EXPECT_NE(m.find(std::string("\"") + f + "\""), std::string::npos) << m;
    }
  }
  const std::vector<std::string> fine = {"-O3", "-Ofast", "-march=native", "-mavx2", "-mprefer-vector-width=512",
                                         "-ffast-math", "-fno-math-errno", "-funroll-loops", "-fopenmp-simd",
                                         "-ftree-vectorize", "-fvect-cost-model=unlimited", "-fno-exceptions",
                                         "-fno-trapping-math", "-DTILE=64", "-UNDEBUG", "-Wall", "-Wno-unused",
                                         "-std=c++23", "-pthread", "-falign-loops=32", "-fconstexpr-depth=100"};
  std::string line = "// kope:cxxflags";
  for (const auto& f : fine) line += " " + f;
  EXPECT_EQ(flag_directives(line + "\n", "k.cpp"), fine);
}

TEST_F(CompilerTest, ARefusedFlagWritesNothing) {
  const fs::path before = fs::current_path();
  fs::current_path(dir.path());
  std::string src = "// kope:cxxflags -fopt-info-all=makefile\n" +
                    test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;");
  EXPECT_THROW(compile_kernel(src, "k.cpp", paths.build, paths.include, {}), Error);
  EXPECT_FALSE(fs::exists(dir / "makefile"));
  fs::current_path(before);
}

// The compiler sees only the system folders, kope's include folder and its own job folder: a kernel that includes
// a secret gets "file not found", and nothing of the secret reaches the log that is stored in the report.
TEST_F(CompilerTest, IncludingAFileOutsideTheJobIsNotFoundAndLeaksNothing) {
  const Isolation caps = sandbox_capabilities();
  ASSERT_NE(std::find(caps.active.begin(), caps.active.end(), "mount-namespace"), caps.active.end())
      << "no private filesystem view here (bubblewrap, from install-deps.sh), the compiler sees what its uid may "
         "read: " << caps.summary();
  const fs::path secret = dir / "secret.txt";
  test::write_text(secret, "TOPSECRET-LINE the first line\n");
  test::write_text(dir / "golden" / "y.bin", "GOLDEN-ANSWERS\n");
  std::string shadow_line;
  if (std::ifstream shadow("/etc/shadow"); shadow) std::getline(shadow, shadow_line);
  const std::vector<std::string> includes = {
      secret.string(), "/etc/shadow", "../../../golden/y.bin", "../../../../golden/y.bin",
      (paths.build.parent_path() / "golden" / "y.bin").string()};
  for (const auto& inc : includes) {
    std::string src = "#include \"" + inc + "\"\n" + test::affine_kernel("y[0] = x[0];");
    BuildResult r = compile_kernel(src, "k.cpp", paths.build, paths.include, {});
    EXPECT_FALSE(r.ok) << inc;
    EXPECT_NE(r.log.find("No such file or directory"), std::string::npos) << inc << ": " << r.log;
    EXPECT_EQ(r.log.find("TOPSECRET"), std::string::npos) << r.log;
    EXPECT_EQ(r.log.find("GOLDEN-ANSWERS"), std::string::npos) << r.log;
    EXPECT_EQ(r.error.find("TOPSECRET"), std::string::npos) << r.error;
    if (!shadow_line.empty()) {
      EXPECT_EQ(r.log.find(shadow_line.substr(0, shadow_line.find(':') + 2)), std::string::npos) << r.log;
    }
  }
}

TEST_F(CompilerTest, TheCompilersEnvironmentIsClean) {
  // CPATH would add a folder to every include search; the compiler must not see it.
  test::write_text(dir / "evil" / "evil.h", "#define KOPE_EVIL 1\n");
  const char* old = std::getenv("CPATH");
  setenv("CPATH", (dir / "evil").c_str(), 1);
  std::string src = "#include \"evil.h\"\n" + test::affine_kernel("y[0] = x[0];");
  BuildResult r = compile_kernel(src, "k.cpp", paths.build, paths.include, {});
  if (old) setenv("CPATH", old, 1);
  else unsetenv("CPATH");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("evil.h"), std::string::npos) << r.log;
}

TEST_F(CompilerTest, AMemoryHungryCompilationIsStoppedByTheMemoryLimit) {
  // A fold over 400k template arguments: cc1plus grows by tens of MiB a second.
  std::string src = "#include <utility>\n"
                    "template <std::size_t... I> int sum(std::index_sequence<I...>) { return (int(I) + ...); }\n"
                    "int z = sum(std::make_index_sequence<400000>{});\n" +
                    test::affine_kernel("y[0] = x[0];");
  CompileOptions o;
  o.memory_bytes = 160ull << 20;
  o.timeout_seconds = 120;
  BuildResult r = compile_kernel(src, "k.cpp", paths.build, paths.include, o);
  EXPECT_FALSE(r.ok);
  if (r.isolation.find("cgroup-memory (") == std::string::npos && r.isolation.find("cgroup-memory") != std::string::npos) {
    EXPECT_NE(r.error.find("ran out of memory"), std::string::npos) << r.error << "\n" << r.log;
  } else {
    // Without a memory cgroup the per-process address-space limit makes cc1plus fail its allocation.
    EXPECT_NE(r.log.find("memory"), std::string::npos) << r.error << "\n" << r.log;
  }
  EXPECT_LT(r.seconds, 100) << r.error;
  std::cout << r.error << " after " << r.seconds << " s\n";
}

TEST_F(CompilerTest, TheCompilerRunsSandboxed) {
  std::string src = test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;");
  BuildResult r = compile_kernel(src, "k.cpp", paths.build, paths.include, {});
  ASSERT_TRUE(r.ok) << r.error << r.log;
  EXPECT_NE(r.isolation.find("isolated: "), std::string::npos) << r.isolation;
  EXPECT_NE(r.isolation.find("clean-environment"), std::string::npos) << r.isolation;
  // Nothing of the compilation's job folder is left behind, only the built kernel.
  for (const auto& e : fs::directory_iterator(paths.build))
    EXPECT_EQ(e.path().extension(), ".so") << e.path();
}

// ---- the precompiled prelude of trusted builds (the library baselines) -------------------------------------

namespace {

class PreludeTest : public CompilerTest {
 protected:
  fs::path inc = dir / "inc", cache = dir / "pch";
  CompileOptions options;

  void SetUp() override {
    fs::create_directories(inc);
    set_value(1);
    options.include_dirs = {inc.string()};
    options.prelude = {"#include <vector>", "#include \"extra.h\""};
    options.prelude_cache = cache;
  }
  void set_value(int v) {
    std::ofstream(inc / "extra.h") << "#pragma once\ninline int prelude_value() { return " << v << "; }\n";
  }
  // A source that starts with the prelude and returns prelude_value() + k from value().
  static std::string source(int k) {
    return "// a trusted source\n#include \"kope_kernel.h\"\n#include <vector>\n\n#include \"extra.h\"\n"
           "#include <cstdio>\nextern \"C\" int value() { return prelude_value() + " + std::to_string(k) + "; }\n";
  }
  static int call_value(const fs::path& so) {
    void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) return -1;
    auto f = reinterpret_cast<int (*)()>(dlsym(h, "value"));
    const int v = f ? f() : -2;
    dlclose(h);
    return v;
  }
  static bool uses_prelude(const BuildResult& r) {
    return std::find(r.command.begin(), r.command.end(), "-include") != r.command.end();
  }
  std::vector<fs::path> prelude_dirs() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(cache))
      if (e.is_directory()) out.push_back(e.path());
    return out;
  }
};

}  // namespace

TEST_F(PreludeTest, BuiltOnceAndEveryLaterBuildUsesIt) {
  BuildResult a = compile_kernel(source(10), "a.cpp", paths.build, paths.include, options);
  ASSERT_TRUE(a.ok) << a.error << a.log;
  EXPECT_TRUE(uses_prelude(a)) << a.log;
  EXPECT_EQ(call_value(a.artifact), 11);
  ASSERT_EQ(prelude_dirs().size(), 1u);
  const fs::path gch = prelude_dirs()[0] / "src" / "prelude.h.gch";
  ASSERT_TRUE(fs::exists(gch));
  const auto built_at = fs::last_write_time(gch);
  // Proof that a build reads the precompiled header, not the text: with the text made unusable, the build works.
  const fs::path text = prelude_dirs()[0] / "src" / "prelude.h";
  fs::permissions(text, fs::perms::owner_write, fs::perm_options::add);
  std::ofstream(text) << "#error the prelude was read as text, not precompiled\n";
  BuildResult b = compile_kernel(source(20), "b.cpp", paths.build, paths.include, options);
  ASSERT_TRUE(b.ok) << b.error << b.log;
  EXPECT_TRUE(uses_prelude(b));
  EXPECT_EQ(call_value(b.artifact), 21);
  EXPECT_EQ(fs::last_write_time(gch), built_at) << "rebuilt although nothing changed";
  // The key of a build is the same with or without the prelude: what it makes does not change.
  CompileOptions plain = options;
  plain.prelude.clear();
  EXPECT_EQ(compile_kernel(source(20), "b.cpp", paths.build, paths.include, plain).artifact, b.artifact);
}

TEST_F(PreludeTest, AChangedHeaderRebuildsIt) {
  ASSERT_TRUE(compile_kernel(source(10), "a.cpp", paths.build, paths.include, options).ok);
  set_value(5);  // as an upgraded library would: GCC alone would go on using the old header
  BuildResult r = compile_kernel(source(30), "c.cpp", paths.build, paths.include, options);
  ASSERT_TRUE(r.ok) << r.error << r.log;
  EXPECT_TRUE(uses_prelude(r));
  EXPECT_EQ(call_value(r.artifact), 35);
}

TEST_F(PreludeTest, ASourceThatDoesNotStartWithItIsBuiltAsItIs) {
  // The prelude's lines after code, and a source lacking one of them: neither may have it put before it.
  const std::string late = "extern \"C\" int early() { return 0; }\n" + source(1);
  std::string lacking = source(2);
  lacking.replace(lacking.find("#include <vector>\n"), 18, "");
  for (const std::string& s : {late, lacking}) {
    BuildResult r = compile_kernel(s, "k.cpp", paths.build, paths.include, options);
    ASSERT_TRUE(r.ok) << r.error << r.log;
    EXPECT_FALSE(uses_prelude(r));
  }
  EXPECT_FALSE(fs::exists(cache));
}

TEST_F(PreludeTest, ABrokenPreludeIsNotKeptAndTheBuildGoesOnWithout) {
  options.prelude.push_back("#include <no_such_header_anywhere.h>");
  std::string src = source(3);
  src.insert(0, "#include <no_such_header_anywhere.h>\n");
  BuildResult r = compile_kernel(src, "k.cpp", paths.build, paths.include, options);
  EXPECT_FALSE(r.ok);  // the source itself cannot be built either
  EXPECT_NE(r.log.find("built without the precompiled prelude"), std::string::npos) << r.log;
  EXPECT_TRUE(prelude_dirs().empty()) << "a half-made prelude stayed in the cache";
}

TEST_F(PreludeTest, BuildsAtOnceShareOnePrelude) {
  std::vector<BuildResult> results(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      results[i] = compile_kernel(source(100 + i), "k" + std::to_string(i) + ".cpp", paths.build, paths.include, options);
    });
  for (auto& t : threads) t.join();
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(results[i].ok) << results[i].error << results[i].log;
    EXPECT_TRUE(uses_prelude(results[i])) << results[i].log;
    EXPECT_EQ(call_value(results[i].artifact), 101 + i);
  }
  EXPECT_EQ(prelude_dirs().size(), 1u);
}

TEST_F(PreludeTest, APreludeTheSandboxCannotShowIsLeftOutNotFatal) {
  // Built where the sandbox can show it (bubblewrap), then used where it cannot: without bubblewrap, as root, the
  // compiler runs as uid 65534, which cannot enter a folder only its owner may search (as /root).
  test::TempDir open_ws;  // a workspace uid 65534 can reach; the prelude's cache stays in the fixture's folder
  fs::permissions(open_ws.path(), fs::perms::all);
  const EvalPaths reachable = EvalPaths::under(open_ws.path());
  fs::create_directories(reachable.include);
  fs::copy_file(paths.include / "kope_kernel.h", reachable.include / "kope_kernel.h",
                fs::copy_options::overwrite_existing);
  options.include_dirs.clear();
  options.prelude = {"#include <vector>"};
  auto src = [](int k) {
    return "#include <vector>\n#include \"kope_kernel.h\"\nextern \"C\" int value() { return " + std::to_string(k) +
           "; }\n";
  };
  BuildResult made = compile_kernel(src(1), "a.cpp", reachable.build, reachable.include, options);
  ASSERT_TRUE(made.ok && uses_prelude(made)) << made.error << made.log;
  fs::permissions(dir.path(), fs::perms::owner_all, fs::perm_options::replace);  // 0700: root's alone
  BuildResult r;
  {
    test::ScopedEnv env("KOPE_SANDBOX", "none");
    r = compile_kernel(src(2), "b.cpp", reachable.build, reachable.include, options);
  }
  fs::permissions(dir.path(), fs::perms::all, fs::perm_options::replace);
  ASSERT_TRUE(r.ok) << r.error << r.log;
  EXPECT_EQ(call_value(r.artifact), 2);
  if (geteuid() == 0) {
    EXPECT_FALSE(uses_prelude(r));
    EXPECT_NE(r.log.find("built without the precompiled prelude"), std::string::npos) << r.log;
  } else {  // a user's compiler keeps the user's uid, which reaches the cache
    EXPECT_TRUE(uses_prelude(r)) << r.log;
  }
}

// Past its wall-clock limit a compile fails as timed out, which the evaluator tells apart from a source that does
// not compile (a compile starved at idle priority is redone: kope/eval/evaluator.h).
TEST_F(CompilerTest, ACompilePastItsLimitSaysItTimedOut) {
  const std::string src = test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;",
                                              test::slow_to_compile(20));
  CompileOptions o;
  o.timeout_seconds = 1;
  const BuildResult r = compile_kernel(src, "slow.cpp", paths.build, paths.include, o);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.timed_out) << r.error;
  const BuildResult bad = compile_kernel("this is not C++\n", "bad.cpp", paths.build, paths.include, {});
  EXPECT_FALSE(bad.ok);
  EXPECT_FALSE(bad.timed_out) << bad.error;
}
