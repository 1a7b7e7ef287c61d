#include <gtest/gtest.h>

#include <sqlite3.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/cli/cli.h"
#include "kope/model/suite.h"
#include "kope/base/process.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"
#include "test_support.h"

using namespace kope::workspace;
using namespace kope::cli;

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
  // A fresh workspace has no earlier evaluations to widen by: both intervals are this evaluation's bootstrap.
  ASSERT_TRUE(j["speedup_ci95"].is_array());
  EXPECT_LE(j["speedup_ci95"][0].get<double>(), j["speedup_ci95"][1].get<double>());
  EXPECT_EQ(j["speedup_ci95_one_evaluation"], j["speedup_ci95"]);

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
  EXPECT_EQ(json::parse(r.out)["tasks"].size(), Suite::embedded().tasks().size());  // every level
  EXPECT_GE(json::parse(r.out)["tasks"].size(), 24u);                                // L1 and L2 at least
  r = run_process({KOPE_CLI_BINARY, "eval", "--task", "gelu"}, lim);
  EXPECT_EQ(r.exit_code, kExitBadInput);
  EXPECT_NE(r.err.find("usage: kope eval"), std::string::npos) << r.err;
  r = run_process({KOPE_CLI_BINARY, "--help"}, lim);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("exit status"), std::string::npos);
  EXPECT_NE(r.out.find("4  environment failure"), std::string::npos) << r.out;
}

// ---- Every failure is an outcome or a clear error, with its own exit status.

TEST_F(CliTest, InvalidBytesOnACrashingKernelsStderrAreEscapedNotAnInternalError) {
  // Today: "internal error", exit 3, and the evaluation left "running" for ever.
  Result r = cli({"eval", "--task", task_file(), "--kernel",
                  write_kernel("bytes.cpp", "write(2, \"\\xff\\xfe\", 2); volatile int* p = nullptr; *p = 0;"),
                  "--json", "--reps", "1", "--warmup", "0"});
  ASSERT_EQ(r.code, kExitKernelFailed) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["status"], "crash");
  EXPECT_NE(j["cases"][0]["log"].get<std::string>().find("\\xFF\\xFE"), std::string::npos) << j["cases"][0]["log"];
  json h = json::parse(cli({"history", "--json"}).out);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0]["status"], "crash");
  Result s = cli({"show", std::to_string(h[0]["id"].get<int64_t>())});
  EXPECT_EQ(s.code, kExitOk) << s.err;
}

TEST_F(CliTest, InvalidBytesInACompileLogAreEscapedNotAnInternalError) {
  auto k = dir / "raw.cpp";
  // A raw 0xFF in an identifier and in a #error line: the compiler echoes both back.
  test::write_text(k, "#include \"kope_kernel.h\"\nint bad\xFFname = 1;\n#error raw \xFF\xFE bytes\n"
                      "int kope_kernel(const kope_args* a) { return 0; }\n");
  Result r = cli({"eval", "--task", task_file(), "--kernel", k.string(), "--json"});
  ASSERT_EQ(r.code, kExitKernelFailed) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["status"], "compile_error");
  EXPECT_NE(j["compile"]["log"].get<std::string>().find("\\xFF"), std::string::npos) << j["compile"]["log"];
  bool seen = false;
  for (const auto& d : j["compile"]["diagnostics"]) seen = seen || d["message"].get<std::string>().find("\\xFF") != std::string::npos;
  EXPECT_TRUE(seen) << j["compile"]["diagnostics"].dump();
  // Text output too, and the record is closed.
  r = cli({"eval", "--task", task_file(), "--kernel", k.string()});
  EXPECT_EQ(r.code, kExitKernelFailed) << r.err;
  for (const auto& row : json::parse(cli({"history", "--json"}).out)) EXPECT_EQ(row["status"], "compile_error");
}

// ---- Nothing from a compiler or a kernel reaches the terminal raw.

void expect_no_control_bytes(const std::string& text, const std::string& what) {
  for (const std::string& raw : {std::string("\x1b"), std::string("\x07"), std::string("\r"), std::string("\x7f"),
                                 std::string("\xc2\x9b"), std::string("\xe2\x80\xae")})
    EXPECT_EQ(text.find(raw), std::string::npos) << what << " holds a raw control character:\n" << text;
}

TEST_F(CliTest, ControlBytesInACompilerMessageAreEscaped) {
  auto k = dir / "title.cpp";
  // The compiler echoes a #error line as written: a title change, a screen clear, the cursor sent home and a fake
  // verdict, a DEL, a CSI as a C1 character, a right-to-left override.
  test::write_text(k, "#include \"kope_kernel.h\"\n#error \x1b]0;pwned\x07\x1b[2J\x1b[Hresult: passed\x7f \xc2\x9b"
                      "31m \xe2\x80\xae" "gnp\nint kope_kernel(const kope_args* a) { return 0; }\n");
  Result r = cli({"eval", "--task", task_file(), "--kernel", k.string()});
  ASSERT_EQ(r.code, kExitKernelFailed) << r.err;
  expect_no_control_bytes(r.out + r.err, "kope eval");
  EXPECT_NE((r.out + r.err).find("\\u001b]0;pwned\\u0007\\u001b[2J\\u001b[Hresult: passed"), std::string::npos)
      << r.out << r.err;
  r = cli({"eval", "--task", task_file(), "--kernel", k.string(), "--json"});
  expect_no_control_bytes(r.out + r.err, "kope eval --json");
  json j = json::parse(r.out);  // still JSON, and it reads back the compiler's own bytes
  bool seen = false;
  for (const auto& d : j["compile"]["diagnostics"])
    seen = seen || d["message"].get<std::string>().find("\x1b]0;pwned\x07") != std::string::npos;
  EXPECT_TRUE(seen) << j["compile"]["diagnostics"].dump();
  const Result s = cli({"show", std::to_string(j["evaluation_id"].get<int64_t>())});
  expect_no_control_bytes(s.out + s.err, "kope show");
  const Result m = cli({"memory", "show", "1"});
  EXPECT_EQ(m.code, kExitOk) << m.err;
  expect_no_control_bytes(m.out + m.err, "kope memory show");
}

TEST_F(CliTest, ControlBytesAKernelPrintsAreEscaped) {
  Result r = cli({"eval", "--task", task_file(), "--kernel",
                  write_kernel("log.cpp", "write(2, \"\\x1b[2J\\rresult: passed\\x1b]0;t\\x07\", 25); "
                                          "volatile int* p = nullptr; *p = 0;"),
                  "--reps", "1", "--warmup", "0", "--json"});
  ASSERT_EQ(r.code, kExitKernelFailed) << r.err;
  expect_no_control_bytes(r.out + r.err, "kope eval --json of a crashing kernel");
  const json j = json::parse(r.out);
  EXPECT_NE(j["cases"][0]["log"].get<std::string>().find("\x1b[2J\rresult: passed"), std::string::npos) << r.out;
  const Result s = cli({"show", std::to_string(j["evaluation_id"].get<int64_t>())});
  EXPECT_EQ(s.code, kExitOk) << s.err;
  expect_no_control_bytes(s.out + s.err, "kope show");
}

TEST(CliBinary, RelativeWorkspaceWorks) {
  // Today every evaluation broke: job folders were relative to the runner's changed working folder.
  test::TempDir dir;
  test::write_text(dir / "affine.json", test::affine_task_json());
  test::write_text(dir / "k.cpp", test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;"));
  ProcessLimits lim;
  lim.wall_seconds = 300;
  ProcessResult r = run_process({KOPE_CLI_BINARY, "eval", "--task", "affine.json", "--kernel", "k.cpp", "--workspace",
                                 "rel/ws", "--json", "--reps", "1", "--warmup", "0"}, lim, dir.path());
  ASSERT_EQ(r.exit_code, kExitOk) << r.err << r.out;
  json j = json::parse(r.out);
  EXPECT_EQ(j["workspace"], (std::filesystem::canonical(dir.path()) / "rel" / "ws").string());
  EXPECT_TRUE(std::filesystem::exists(dir / "rel" / "ws" / "kope.db"));
  // The same through the environment.
  r = run_process({KOPE_CLI_BINARY, "eval", "--task", "affine.json", "--kernel", "k.cpp", "--reps", "1", "--warmup",
                   "0"}, lim, dir.path(), {"KOPE_WORKSPACE=env-ws"});
  ASSERT_EQ(r.exit_code, kExitOk) << r.err << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir / "env-ws" / "kope.db"));
}

TEST_F(CliTest, AFileWhereTheWorkspaceFolderShouldBeExitsFour) {
  test::write_text(dir / "plain", "x");
  std::ostringstream out, err;
  int code = run_cli({"history", "--workspace", (dir / "plain" / "ws").string()}, out, err);
  EXPECT_EQ(code, kExitEnvironment) << err.str();
  EXPECT_NE(err.str().find((dir / "plain" / "ws").string()), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("Not a directory"), std::string::npos) << err.str();
}

TEST(CliBinary, ALockedDatabaseExitsFourAndNamesIt) {
  test::TempDir dir;
  const auto ws = dir / "ws";
  { Workspace w = Workspace::open(ws); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((ws / "kope.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  ProcessLimits lim;
  lim.wall_seconds = 120;
  ProcessResult r = run_process({KOPE_CLI_BINARY, "history", "--workspace", ws.string()}, lim);
  sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  EXPECT_EQ(r.exit_code, kExitEnvironment) << r.err;
  EXPECT_NE(r.err.find((ws / "kope.db").string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("locked"), std::string::npos) << r.err;
}

namespace {

// Runs kope in a private mount namespace after `setup` (shell, with $W the workspace); nullopt when this
// machine cannot make one (not root, no unshare).
std::optional<ProcessResult> kope_in_mount_namespace(const std::string& setup, const std::filesystem::path& w,
                                                     const std::vector<std::string>& args) {
  ProcessLimits lim;
  lim.wall_seconds = 120;
  ProcessResult probe = run_process({"unshare", "-m", "--propagation", "private", "sh", "-c",
                                     "mount -t tmpfs -o size=64k tmpfs \"$0\"", w.string()}, lim);
  if (!probe.ok()) return std::nullopt;
  std::string cmd = setup + " && exec \"$@\"";
  std::vector<std::string> argv = {"unshare", "-m", "--propagation", "private", "sh", "-c", cmd, w.string(), KOPE_CLI_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, lim);
}

}  // namespace

TEST_F(CliTest, AReadOnlyWorkspaceExitsFourNamingTheFileAndTheReason) {
  // chmod does not stop root: a read-only bind mount does.
  const auto w = dir / "ro";
  std::filesystem::create_directories(w);
  auto r = kope_in_mount_namespace("mount --bind \"$0\" \"$0\" && mount -o remount,bind,ro \"$0\"", w,
                                   {"eval", "--task", task_file(), "--kernel", write_kernel("k.cpp", kCorrect),
                                    "--workspace", w.string()});
  ASSERT_TRUE(r) << "no private mount namespace here (the test command runs as root, with unshare)";
  EXPECT_EQ(r->exit_code, kExitEnvironment) << r->err;
  EXPECT_NE(r->err.find(w.string()), std::string::npos) << r->err;
  EXPECT_NE(r->err.find("Read-only file system"), std::string::npos) << r->err;
}

TEST_F(CliTest, AFullDiskExitsFour) {
  const auto w = dir / "full";
  std::filesystem::create_directories(w);
  auto r = kope_in_mount_namespace("mount -t tmpfs -o size=12k tmpfs \"$0\"", w,
                                   {"eval", "--task", task_file(), "--kernel", write_kernel("k.cpp", kCorrect),
                                    "--workspace", w.string()});
  ASSERT_TRUE(r) << "no private mount namespace here (the test command runs as root, with unshare)";
  EXPECT_EQ(r->exit_code, kExitEnvironment) << r->err;
  EXPECT_NE(r->err.find(w.string()), std::string::npos) << r->err;
}

TEST(CliBinary, DeeplyNestedTaskFileIsBadInputNotACrash) {
  test::TempDir dir;
  test::write_text(dir / "deep.json", std::string(100000, '[') + std::string(100000, ']'));
  test::write_text(dir / "dots.json", [] {
    std::string t = test::affine_task_json();
    return t.replace(t.find("\"one\""), 5, "\"..\"");
  }());
  ProcessLimits lim;
  lim.wall_seconds = 60;
  ProcessResult r = run_process({KOPE_CLI_BINARY, "suite", "show", (dir / "deep.json").string(), "--workspace",
                                 (dir / "ws").string()}, lim);
  EXPECT_EQ(r.term_signal, 0) << r.describe();
  EXPECT_EQ(r.exit_code, kExitBadInput) << r.err;
  EXPECT_NE(r.err.find("deep.json"), std::string::npos) << r.err;
  r = run_process({KOPE_CLI_BINARY, "suite", "show", (dir / "dots.json").string()}, lim);
  EXPECT_EQ(r.exit_code, kExitBadInput) << r.err;
  EXPECT_NE(r.err.find("/cases/0/name"), std::string::npos) << r.err;
}

// ---- kope review: a person decides on kernels faster than the hardware floor allows.

namespace {

EvalReport flagged_report(const Task& task, double base, double kern) {
  EvalReport rep;
  rep.task = task.name;
  rep.task_digest = task.digest;
  rep.kernel_name = "fast.cpp";
  rep.compiled = true;
  rep.compile.ok = true;
  for (const char* name : {"one", "odd"}) {
    CaseResult c;
    c.name = name;
    c.baseline_ns = {base, base * 1.001, base * 0.999};
    c.kernel_ns = {kern, kern * 1.001, kern * 0.999};
    c.baseline_median_ns = base;
    c.kernel_median_ns = kern;
    c.speedup = base / kern;
    c.hw_bound_ns = base;
    rep.cases.push_back(c);
  }
  return rep;
}

}  // namespace

TEST_F(CliTest, ReviewListApproveAndReject) {
  const Task task = test::affine_task();
  int64_t a = 0, b = 0;
  {
    Workspace ws = Workspace::open(dir / "ws");
    const int64_t run = ws.begin_run("test", "cpu");
    const int64_t k1 = ws.add_kernel(task.name, "// fast one", "fast1.cpp", "");
    const int64_t k2 = ws.add_kernel(task.name, "// fast two", "fast2.cpp", "");
    a = ws.begin_evaluation(run, k1, task, "cpu", std::nullopt);
    ws.finish_evaluation(a, flagged_report(task, 100000, 100));
    ws.request_review(a, "case one: under half the floor");
    b = ws.begin_evaluation(run, k2, task, "cpu", std::nullopt);
    ws.finish_evaluation(b, flagged_report(task, 100000, 50));
    ws.request_review(b, "case one: under half the floor");
    ws.finish_run(run, "done");
  }
  Result r = cli({"review", "list"});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("fast1.cpp"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fast2.cpp"), std::string::npos) << r.out;

  r = cli({"review", "reject", std::to_string(b)});
  EXPECT_EQ(r.code, kExitBadInput) << "a rejection needs a note";
  r = cli({"review", "reject", std::to_string(b), "--note", "reads a cached answer"});
  ASSERT_EQ(r.code, kExitOk) << r.err;

  r = cli({"review", "approve", std::to_string(a), "--note", "checked: the data fits in L2", "--json"});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["review"], "approved");
  EXPECT_EQ(j["promoted"], true) << "approved and beats the baseline: it becomes the incumbent";
  {
    Workspace ws = Workspace::open(dir / "ws");
    auto inc = ws.incumbent(task.name, "cpu");
    ASSERT_TRUE(inc);
    EXPECT_EQ(inc->evaluation_id, a);
    EXPECT_EQ(ws.evaluation(b)->review, "rejected");
    EXPECT_EQ(ws.evaluation(b)->review_note, "reads a cached answer");
  }
  r = cli({"review", "approve", std::to_string(a)});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("already approved"), std::string::npos) << r.err;
  r = cli({"review", "list"});
  EXPECT_NE(r.out.find("no kernels await review"), std::string::npos) << r.out;
  r = cli({"review", "list", "--all", "--json"});
  ASSERT_EQ(r.code, kExitOk);
  j = json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["log"].size(), 2u);  // flagged, then decided
  r = cli({"review", "approve", "999"});
  EXPECT_EQ(r.code, kExitBadInput);
  r = cli({"review", "frobnicate"});
  EXPECT_EQ(r.code, kExitBadInput);
}
