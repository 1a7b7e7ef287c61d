#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/cli.h"
#include "kope/process.h"
#include "test_support.h"

using namespace kope;
using nlohmann::json;

namespace {

struct Result {
  int code;
  std::string out, err;
};

class CliTest : public ::testing::Test {
 protected:
  test::TempDir dir;

  Result cli(std::vector<std::string> args) {
    args.push_back("--workspace");
    args.push_back((dir / "ws").string());
    std::ostringstream out, err;
    int code = run_cli(args, out, err);
    return {code, out.str(), err.str()};
  }

  std::string write_kernel(const std::string& name, const std::string& body) {
    auto p = dir / name;
    test::write_text(p, test::affine_kernel(body));
    return p.string();
  }

  std::string task_file() {
    auto p = dir / "affine.json";
    test::write_text(p, test::affine_task_json());
    return p.string();
  }
};

const char* kCorrect = "for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;";

}  // namespace

TEST_F(CliTest, SuiteListJson) {
  Result r = cli({"suite", "list", "--level", "1", "--json"});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["suite"], "embedded");
  ASSERT_EQ(j["tasks"].size(), 8u);
  for (const auto& t : j["tasks"]) {
    EXPECT_TRUE(t.contains("inputs"));
    EXPECT_GE(t["cases"].size(), 4u);
  }
}

TEST_F(CliTest, SuiteListTextAndShow) {
  Result r = cli({"suite", "list"});
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_NE(r.out.find("swi_glu"), std::string::npos);
  r = cli({"suite", "show", "swi_glu", "--json"});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["name"], "swi_glu");
  // shapes are resolved per case: the output's last dim is half the input's
  const auto& c = j["cases"][0];
  EXPECT_EQ(c["inputs"][0]["shape"][1].get<int64_t>(), 2 * c["outputs"][0]["shape"][1].get<int64_t>());
}

TEST_F(CliTest, EvalCorrectKernelJson) {
  Result r = cli({"eval", "--task", task_file(), "--kernel", write_kernel("k.cpp", kCorrect), "--device", "cpu",
                  "--json", "--warmup", "1", "--reps", "3"});
  ASSERT_EQ(r.code, kExitOk) << r.err << r.out;
  json j = json::parse(r.out);
  EXPECT_EQ(j["compiled"], true);
  EXPECT_EQ(j["correct"], true);
  EXPECT_TRUE(j["errors"].empty());
  EXPECT_TRUE(j["speedup"].is_number());
  ASSERT_EQ(j["cases"].size(), 3u);
  EXPECT_TRUE(j["cases"][0]["kernel_median_ns"].is_number());
  EXPECT_TRUE(j["cases"][0]["baseline_median_ns"].is_number());
  EXPECT_EQ(j["settings"]["reps"], 3);

  // recorded: history lists it and show returns the same report
  Result h = cli({"history", "--json"});
  ASSERT_EQ(h.code, kExitOk);
  json hj = json::parse(h.out);
  ASSERT_EQ(hj.size(), 1u);
  EXPECT_EQ(hj[0]["status"], "passed");
  Result s = cli({"show", std::to_string(hj[0]["id"].get<int64_t>())});
  ASSERT_EQ(s.code, kExitOk) << s.err;
  EXPECT_EQ(json::parse(s.out)["kernel"]["sha256"], j["kernel"]["sha256"]);
}

TEST_F(CliTest, EvalWrongAndCrashingKernelsExitOne) {
  Result r = cli({"eval", "--task", task_file(), "--kernel", write_kernel("w.cpp", "for (int64_t i = 0; i < n; ++i) y[i] = x[i];"),
                  "--json", "--reps", "1", "--warmup", "0"});
  EXPECT_EQ(r.code, kExitKernelFailed) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["correct"], false);
  EXPECT_EQ(j["status"], "wrong");
  EXPECT_FALSE(j["errors"].empty());

  r = cli({"eval", "--task", task_file(), "--kernel", write_kernel("s.cpp", "volatile int* p = nullptr; *p = 1;"),
           "--reps", "1", "--warmup", "0"});
  EXPECT_EQ(r.code, kExitKernelFailed);
  EXPECT_NE(r.out.find("SIGSEGV"), std::string::npos) << r.out;
}

TEST_F(CliTest, EvalCompileErrorShowsDiagnostics) {
  auto k = dir / "broken.cpp";
  test::write_text(k, "#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) { return a->nope; }\n");
  Result r = cli({"eval", "--task", task_file(), "--kernel", k.string(), "--json"});
  EXPECT_EQ(r.code, kExitKernelFailed);
  json j = json::parse(r.out);
  EXPECT_EQ(j["status"], "compile_error");
  ASSERT_FALSE(j["compile"]["diagnostics"].empty());
  EXPECT_EQ(j["compile"]["diagnostics"][0]["line"], 2);
  EXPECT_NE(j["compile"]["diagnostics"][0]["file"].get<std::string>().find("broken.cpp"), std::string::npos);
}

TEST_F(CliTest, BadInputIsExitTwoWithAClearMessage) {
  Result r = cli({"eval", "--task", "nosuch", "--kernel", write_kernel("k.cpp", kCorrect)});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("no task named \"nosuch\""), std::string::npos) << r.err;

  r = cli({"eval", "--task", "gelu", "--kernel", (dir / "missing.cpp").string()});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("missing.cpp"), std::string::npos) << r.err;

  auto empty = dir / "empty.cpp";
  test::write_text(empty, "\n");
  r = cli({"eval", "--task", "gelu", "--kernel", empty.string()});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("is empty"), std::string::npos) << r.err;

  auto bad_task = dir / "bad.json";
  test::write_text(bad_task, R"({"name": "bad", "inputs": [], "outputs": [], "reference": "", "cases": []})");
  r = cli({"eval", "--task", bad_task.string(), "--kernel", write_kernel("k.cpp", kCorrect)});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("/inputs"), std::string::npos) << r.err;

  r = cli({"eval", "--task", "gelu", "--kernel", write_kernel("k.cpp", kCorrect), "--device", "npu"});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("device \"npu\""), std::string::npos) << r.err;

  r = cli({"eval", "--task", "gelu", "--kernel", write_kernel("k.cpp", kCorrect), "--reps", "zero"});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("--reps"), std::string::npos) << r.err;

  r = cli({"eval", "--task", "gelu", "--kernel", write_kernel("k.cpp", kCorrect), "--cases", "nosuch"});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("no case \"nosuch\""), std::string::npos) << r.err;

  r = cli({"run", "--tasks", "gelu,nosuch"});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("no task named \"nosuch\""), std::string::npos) << r.err;

  r = cli({"frobnicate"});
  EXPECT_EQ(r.code, kExitBadInput);
  r = cli({"eval", "--bogus"});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("unknown option --bogus"), std::string::npos);
  r = cli({"show", "999"});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("no evaluation 999"), std::string::npos);
}

TEST_F(CliTest, BrokenReferenceIsBadInputAndStillRecorded) {
  std::string text = test::affine_task_json();
  const std::string good = "y[i] = 2 * x[i] + 1;";
  text.replace(text.find(good), good.size(), "y[i] = undefined_name;");
  auto p = dir / "broken_ref.json";
  test::write_text(p, text);
  Result r = cli({"eval", "--task", p.string(), "--kernel", write_kernel("k.cpp", kCorrect)});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("reference does not build"), std::string::npos) << r.err;
  json h = json::parse(cli({"history", "--json"}).out);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0]["status"], "error");
}

TEST_F(CliTest, BadTaskInASuiteFolderNamesTheFile) {
  test::write_text(dir / "suite" / "ok.json", test::affine_task_json());
  test::write_text(dir / "suite" / "broken.json", "{ nope");
  Result r = cli({"suite", "list", "--suite", (dir / "suite").string()});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("broken.json"), std::string::npos) << r.err;
}

TEST_F(CliTest, RunTheLoopOnOneTask) {
  Result r = cli({"run", "--tasks", "masked_scale", "--cases", "n1,n1023", "--json", "--reps", "2", "--warmup", "1"});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  json j = json::parse(r.out);
  ASSERT_EQ(j["tasks"].size(), 1u);
  const auto& t = j["tasks"][0];
  EXPECT_EQ(t["task"], "masked_scale");
  EXPECT_GE(t["attempts"].size(), 1u);
  Result h = cli({"history", "--task", "masked_scale", "--json"});
  EXPECT_EQ(json::parse(h.out).size(), t["attempts"].size());
}

TEST(CliBinary, EndToEnd) {
  test::TempDir dir;
  ProcessLimits lim;
  lim.wall_seconds = 60;
  ProcessResult r = run_process({KOPE_CLI_BINARY, "suite", "list", "--json", "--workspace", dir.path().string()}, lim);
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  EXPECT_EQ(json::parse(r.out)["tasks"].size(), 24u);  // L1 and L2
  r = run_process({KOPE_CLI_BINARY, "eval", "--task", "gelu"}, lim);
  EXPECT_EQ(r.exit_code, kExitBadInput);
  EXPECT_NE(r.err.find("usage: kope eval"), std::string::npos) << r.err;
  r = run_process({KOPE_CLI_BINARY, "--help"}, lim);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("exit status"), std::string::npos);
}
