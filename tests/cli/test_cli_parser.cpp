// The `kope` parser (cli/options.cpp, cli/cli.cpp): bad usage is exit 2 with a message naming the option and
// the value, whatever the command; an option has the same bounds wherever it appears; help is CLI11's. And the
// one policy factory the command line and the window share (agent::make_policy).
#include <gtest/gtest.h>

#include <sstream>

#include "kope/agent/make_policy.h"
#include "kope/base/error.h"
#include "kope/cli/cli.h"
#include "kope/workspace/workspace.h"
#include "test_support.h"

using namespace kope::workspace;
using namespace kope::cli;

using namespace kope;

namespace {

struct Result {
  int code;
  std::string out, err;
};

// The line exactly as given (no --workspace appended), so an option can be the last word.
Result kope_cli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

void expect_usage_error(const Result& r, const std::vector<std::string>& words) {
  EXPECT_EQ(r.code, kExitBadInput) << r.err;
  for (const auto& w : words) EXPECT_NE(r.err.find(w), std::string::npos) << "expected \"" << w << "\" in: " << r.err;
}

}  // namespace

TEST(CliParser, AnUnknownOptionIsNamedWithItsCommand) {
  test::TempDir dir;
  const std::string ws = (dir.path() / "ws").string();
  expect_usage_error(kope_cli({"eval", "--task", "gelu", "--frobnicate", "--workspace", ws}),
                     {"unknown option --frobnicate", "kope eval"});
  expect_usage_error(kope_cli({"memory", "cases", "--frobnicate=3"}), {"unknown option --frobnicate", "kope memory cases"});
  expect_usage_error(kope_cli({"history", "extra"}), {"unexpected argument \"extra\"", "kope history"});
  expect_usage_error(kope_cli({"memory", "frobnicate"}), {"unknown command \"frobnicate\"", "kope memory"});
  expect_usage_error(kope_cli({"--frobnicate"}), {"unknown option --frobnicate"});
  EXPECT_FALSE(std::filesystem::exists(ws)) << "bad usage records nothing";
}

TEST(CliParser, ABadNumberNamesTheOptionAndTheValue) {
  expect_usage_error(kope_cli({"eval", "--task", "gelu", "--library", "--reps", "many"}), {"--reps", "\"many\""});
  expect_usage_error(kope_cli({"run", "--timeout", "soon"}), {"--timeout", "\"soon\""});
  expect_usage_error(kope_cli({"run", "--policy", "llm", "--temperature", "warm"}), {"--temperature", "\"warm\""});
  expect_usage_error(kope_cli({"show", "twelve"}), {"evaluation id", "\"twelve\""});
  expect_usage_error(kope_cli({"memory", "graph", "--weights", "1,2"}), {"--weights", "\"1,2\""});
}

TEST(CliParser, AnOutOfRangeValueNamesTheBounds) {
  expect_usage_error(kope_cli({"eval", "--task", "gelu", "--library", "--warmup", "1001"}),
                     {"--warmup expects a whole number from 0 to 1000", "\"1001\""});
  expect_usage_error(kope_cli({"history", "--limit", "0"}), {"--limit expects a whole number from 1", "\"0\""});
  expect_usage_error(kope_cli({"run", "--memory-mb", "8"}), {"--memory-mb", "from 64", "\"8\""});
  expect_usage_error(kope_cli({"run", "--policy", "llm", "--qw", "-1"}), {"--qw", "from 0 to 1000", "\"-1\""});
  expect_usage_error(kope_cli({"suite", "list", "--level", "0"}), {"--level 0", "has L1, L2"});
  expect_usage_error(kope_cli({"suite", "list", "--level", "one"}), {"--level expects", "\"one\""});
  expect_usage_error(kope_cli({"run", "--policy", "llm", "--memory", "some"}), {"--memory expects off, dump or active", "\"some\""});
  expect_usage_error(kope_cli({"memory", "graph", "--format", "svg"}), {"--format expects text, dot, graphml or json", "\"svg\""});
}

TEST(CliParser, AMissingValueNamesTheOption) {
  expect_usage_error(kope_cli({"eval", "--task", "gelu", "--kernel"}), {"option --kernel needs a value", "kope eval"});
  expect_usage_error(kope_cli({"run", "--reps"}), {"option --reps needs a value"});
  expect_usage_error(kope_cli({"history", "--workspace"}), {"option --workspace needs a value"});
  expect_usage_error(kope_cli({"doctor", "--json=yes"}), {"option --json takes no value"});
}

// --reps, --timeout, --max-attempts, --limit: one definition, so one set of bounds in every command and policy.
TEST(CliParser, AnOptionHasTheSameBoundsInEveryCommand) {
  auto err_of = [](std::vector<std::string> args) { return kope_cli(args).err; };
  const std::string reps = err_of({"eval", "--task", "gelu", "--library", "--reps", "0"});
  EXPECT_NE(reps.find("--reps expects a whole number from 1 to 10000"), std::string::npos) << reps;
  EXPECT_EQ(err_of({"run", "--reps", "0"}), reps);
  EXPECT_EQ(err_of({"run", "--policy", "llm", "--reps", "0"}), reps);
  const std::string timeout = err_of({"eval", "--task", "gelu", "--library", "--timeout", "0"});
  EXPECT_NE(timeout.find("--timeout expects a number of seconds above 0"), std::string::npos) << timeout;
  EXPECT_EQ(err_of({"run", "--policy", "llm", "--timeout", "0"}), timeout);
  EXPECT_EQ(err_of({"run", "--max-attempts", "0"}), err_of({"run", "--policy", "llm", "--max-attempts", "0"}));
  const std::string limit = err_of({"history", "--limit", "0"});
  EXPECT_EQ(err_of({"memory", "cases", "--limit", "0"}), limit);
  EXPECT_EQ(err_of({"memory", "retrieve", "--task", "gelu", "--limit", "0"}), limit);
}

TEST(CliParser, AnOptionOfTheOtherPolicyIsRefused) {
  expect_usage_error(kope_cli({"run", "--profile", "claude"}), {"--profile applies to --policy llm only"});
  expect_usage_error(kope_cli({"run", "--policy", "llm", "--kernels", "k"}), {"--kernels applies to --policy offline only"});
  expect_usage_error(kope_cli({"run", "--policy", "genetic"}), {"policy \"genetic\"", "offline, llm"});
}

TEST(CliParser, HelpIsCli11sForEveryCommand) {
  Result r = kope_cli({"eval", "--help"});
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_NE(r.out.find("Usage: kope eval"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--reps N"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 to 10000, default 5"), std::string::npos) << r.out;
  r = kope_cli({"run", "--help"});
  EXPECT_NE(r.out.find("--profile NAME"), std::string::npos) << "the LLM agent's options are in run's help";
  r = kope_cli({"memory", "prune", "--help"});
  EXPECT_NE(r.out.find("Usage: kope memory prune"), std::string::npos) << r.out;
  r = kope_cli({"help", "compare"});
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_NE(r.out.find("Usage: kope compare"), std::string::npos) << r.out;
  r = kope_cli({"help"});
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_NE(r.out.find("exit status"), std::string::npos) << r.out;
  r = kope_cli({});
  EXPECT_EQ(r.code, kExitBadInput) << "no command: the help, on stderr";
  EXPECT_NE(r.err.find("Usage: kope"), std::string::npos) << r.err;
  r = kope_cli({"memory", "help"});
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_NE(r.out.find("retrieve"), std::string::npos) << r.out;
}

// A profile the settings file lacks is bad usage, reported before anything is made: no workspace is left behind.
TEST(CliParser, ABadProfileLeavesNoWorkspaceBehind) {
  test::TempDir tmp;
  const auto settings = tmp.path() / "settings.json";
  test::write_text(settings, R"({"profiles": {"local": {"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "q"}}})");
  const auto ws = tmp.path() / "ws";
  const Result r = kope_cli({"run", "--policy", "llm", "--settings", settings.string(), "--profile", "absent", "--tasks",
                             "gelu", "--workspace", ws.string()});
  expect_usage_error(r, {"absent"});
  EXPECT_FALSE(std::filesystem::exists(ws)) << "the workspace was created for a run that could not start";
}

// ---- agent::make_policy, as `kope run` and the window's run controller call it.

TEST(MakePolicy, OfflineNeedsNoModelAndAnUnknownPolicyIsNamed) {
  test::TempDir dir;
  Workspace ws = Workspace::open(dir.path() / "ws");
  agent::PolicyChoice c;
  EXPECT_EQ(agent::make_policy(c, ws)->name(), "offline");
  c.kernels = dir.path() / "kernels";
  EXPECT_EQ(agent::make_policy(c, ws)->name(), "offline");
  c.policy = "genetic";
  try {
    agent::make_policy(c, ws);
    FAIL() << "an unknown policy is refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("policy \"genetic\""), std::string::npos) << e.what();
  }
}

TEST(MakePolicy, TheLlmPolicyFromFlagsAndFromAProfile) {
  test::TempDir dir;
  Workspace ws = Workspace::open(dir.path() / "ws");
  agent::PolicyChoice c;
  c.policy = "llm";
  c.overrides.provider = "openai";
  c.overrides.base_url = "http://127.0.0.1:9/v1";  // a local server needs no key
  c.overrides.model = "m";
  c.settings = dir.path() / "none.json";
  c.cancel = std::make_shared<CancelToken>();
  {
    auto p = agent::make_policy(c, ws);
    auto* agent = dynamic_cast<agent::AgentPolicy*>(p.get());
    ASSERT_NE(agent, nullptr);
    EXPECT_EQ(p->name(), "llm");
    EXPECT_EQ(agent->profile().model, "m");
    EXPECT_EQ(agent->tokens_used(), 0);
  }
  c.cancel->cancel();  // the policy is gone: its hook on the token must be too

  // A named profile of the settings file; a name it lacks is bad input naming it.
  test::write_text(dir.path() / "llm.json",
                   R"({"profiles": {"local": {"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "q"}}})");
  agent::PolicyChoice named;
  named.policy = "llm";
  named.settings = dir.path() / "llm.json";
  named.profile = "local";
  EXPECT_EQ(dynamic_cast<agent::AgentPolicy&>(*agent::make_policy(named, ws)).profile().model, "q");
  named.profile = "absent";
  EXPECT_THROW(agent::make_policy(named, ws), Error);
  // A device without prompt templates is named.
  named.profile = "local";
  named.device = "tpu";
  EXPECT_THROW(agent::make_policy(named, ws), Error);
}
