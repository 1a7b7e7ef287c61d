#include <gtest/gtest.h>

#include <filesystem>

#include "kope/compiler.h"
#include "kope/error.h"
#include "kope/evaluator.h"
#include "test_support.h"

using namespace kope;

namespace {

class CompilerTest : public ::testing::Test {
 protected:
  test::TempDir dir;
  EvalPaths paths = EvalPaths::under(dir.path());
};

}  // namespace

TEST_F(CompilerTest, BuildsASharedObjectAndCachesIt) {
  std::string src = test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;");
  CompileResult r = compile_kernel(src, "k.cpp", paths.build, paths.include, {});
  ASSERT_TRUE(r.ok) << r.error << r.log;
  EXPECT_FALSE(r.cached);
  EXPECT_TRUE(std::filesystem::exists(r.shared_object));
  CompileResult again = compile_kernel(src, "k.cpp", paths.build, paths.include, {});
  EXPECT_TRUE(again.ok);
  EXPECT_TRUE(again.cached);
  EXPECT_EQ(again.shared_object, r.shared_object);
  CompileOptions o3;
  o3.flags = {"-O3"};
  EXPECT_NE(compile_kernel(src, "k.cpp", paths.build, paths.include, o3).shared_object, r.shared_object);
}

TEST_F(CompilerTest, ErrorsCarryTheUsersFileAndLine) {
  std::string src = "#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) {\n  return undeclared_thing;\n}\n";
  CompileResult r = compile_kernel(src, "my_kernel.cpp", paths.build, paths.include, {});
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
  CompileResult r = compile_kernel(src, "k.cpp", paths.build, paths.include, {});
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

TEST(CompilerDiagnostics, ParsesGccLines) {
  auto d = parse_diagnostics("k.cpp: In function 'int f()':\nk.cpp:12:7: warning: unused variable 'q'\n"
                             "k.cpp:14:1: error: expected ';' before '}' token\n");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].severity, "warning");
  EXPECT_EQ(d[1].line, 14);
  EXPECT_EQ(d[1].column, 1);
}
