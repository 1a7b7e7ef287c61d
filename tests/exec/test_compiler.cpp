#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
