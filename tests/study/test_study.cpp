// `kope study` (issue 21, item 4): the suite under memory arms, each in its own workspace, with one table per arm
// and level in the method's form, and the report files (JSON, Markdown, SVG) an engineer and the window read.
// Real evaluations of a tiny suite through the command line and the offline policy.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/cli/cli.h"
#include "kope/study/study.h"
#include "kope/workspace/workspace.h"
#include "test_support.h"

using namespace kope;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

TEST(StudyArms, ParseNamesAndRefusals) {
  const auto arms = study::parse_arms("off,active,active:foreign,dump:local");
  ASSERT_EQ(arms.size(), 4u);
  EXPECT_EQ(arms[0].name(), "off");
  EXPECT_EQ(arms[1].name(), "active");  // both devices' memory, as `kope run` gives by default
  EXPECT_EQ(arms[2].name(), "active:foreign");
  EXPECT_EQ(arms[3].name(), "dump:local");
  auto error_of = [](const std::string& s) {
    try {
      study::parse_arms(s);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of("active,recall").find("\"recall\""), std::string::npos);
  EXPECT_NE(error_of("off:foreign").find("reads no memory"), std::string::npos);
  EXPECT_NE(error_of("active:elsewhere").find("local, foreign or both"), std::string::npos);
  EXPECT_NE(error_of("active,active:both").find("twice"), std::string::npos);
  EXPECT_NE(error_of("").find("expected off"), std::string::npos);
}

study::StudyReport sample() {
  study::StudyReport r;
  r.policy = "offline";
  r.device = "cpu";
  r.started = "2026-12-04T10:00:00Z";
  r.finished = "2026-12-04T10:05:00Z";
  r.arms = {"off", "active"};
  r.levels = {1, 2};
  for (const std::string& arm : r.arms)
    for (int level : r.levels) {
      study::LevelRow x;
      x.arm = arm;
      x.level = level;
      x.operators = 2;
      x.compiled = 2;
      x.correct = level == 1 ? 2 : 1;
      x.cases = 10;
      x.cases_correct = level == 1 ? 10 : 5;
      x.pass_rate = x.cases_correct / 10.0;
      x.fast_1 = 0.5;
      x.fast_1_against = "library";
      if (level == 1) x.geomean_speedup = 1.5;
      x.score = 120;
      x.tokens = 1000;
      x.wall_seconds = 12;
      r.rows.push_back(x);
    }
  study::TaskRow t;
  t.arm = "off";
  t.task = "a|b";  // a table cell must not split on it
  t.level = 1;
  t.speedup = 1.5;
  t.correct = true;
  t.against = "library";
  r.tasks.push_back(t);
  return r;
}

TEST(StudyReport, JsonRoundTripMarkdownAndCharts) {
  const study::StudyReport r = sample();
  const study::StudyReport back = study::study_from_json(study::to_json(r));
  EXPECT_EQ(study::to_json(back), study::to_json(r));
  const std::string md = study::to_markdown(r);
  EXPECT_NE(md.find("## Arm off"), std::string::npos) << md;
  EXPECT_NE(md.find("| L2 | 2 | 2 | 1 | 50.0% (5/10) | 50.0% | - |"), std::string::npos) << md;
  EXPECT_NE(md.find("a\\|b"), std::string::npos) << md;
  const std::string svg = study::svg_chart(r, "pass_rate");
  std::size_t bars = 0;
  for (std::size_t p = svg.find("<rect x="); p != std::string::npos; p = svg.find("<rect x=", p + 1)) ++bars;
  EXPECT_EQ(bars, 4u + 2u);  // a bar per arm and level, a legend swatch per arm
  EXPECT_THROW(study::svg_chart(r, "colour"), Error);
}

TEST(StudyReport, ABadFileIsNamedWithItsField) {
  test::TempDir dir;
  json j = study::to_json(sample());
  j["rows"][1]["pass_rate"] = "high";
  test::write_text(dir / "bad" / "study.json", j.dump());
  try {
    study::read_study(dir / "bad");
    FAIL() << "read a bad study";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/rows/1/pass_rate"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bad"), std::string::npos) << e.what();
  }
  test::write_text(dir / "deep.json", "{\"kind\":\"kope-study\",\"rows\":" + std::string(100000, '[') + std::string(100000, ']') + "}");
  EXPECT_THROW(study::read_study(dir / "deep.json"), Error);  // refused, not a crash
  test::write_text(dir / "other.json", "{\"kind\":\"kope-run\"}");
  EXPECT_THROW(study::read_study(dir / "other.json"), Error);
}

// A suite of two levels: at L1 the offline policy has a wrong and a right kernel, at L2 only a wrong one.
class StudyCli : public ::testing::Test {
 protected:
  test::TempDir dir;

  void SetUp() override {
    for (auto [name, level] : {std::pair<const char*, int>{"aff_one", 1}, {"aff_two", 2}}) {
      json j = json::parse(test::affine_task_json());
      j["name"] = name;
      j["level"] = level;
      test::write_text(dir / "suite" / (std::string(name) + ".json"), j.dump(2));
      test::write_text(dir / "kernels" / name / "01_off_by_one.cpp",
                       "// thought: add two\n" + test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 2;"));
    }
    test::write_text(dir / "kernels" / "aff_one" / "02_right.cpp",
                     "// thought: the affine map\n" + test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;"));
  }

  int cli(std::vector<std::string> args, std::string& out, std::string& err) {
    args.insert(args.end(), {"--workspace", (dir / "ws").string()});
    std::ostringstream o, e;
    const int code = cli::run_cli(args, o, e);
    out = o.str();
    err = e.str();
    return code;
  }
};

TEST_F(StudyCli, ArmsRunInTheirOwnWorkspacesAndTheReportHasATablePerArmAndLevel) {
  std::string out, err;
  const fs::path study_dir = dir / "study";
  const int code = cli({"study", "--suite", (dir / "suite").string(), "--kernels", (dir / "kernels").string(),
                        "--levels", "1,2", "--arms", "off,active:local", "--max-attempts", "3", "--warmup", "0",
                        "--reps", "3", "--out", study_dir.string(), "--json"},
                       out, err);
  ASSERT_EQ(code, 0) << err;
  const json j = json::parse(out);
  EXPECT_EQ(j["dir"], study_dir.string());
  ASSERT_EQ(j["rows"].size(), 4u) << out;
  for (const json& row : j["rows"]) {
    SCOPED_TRACE(row.dump());
    EXPECT_EQ(row["operators"], 1);
    EXPECT_EQ(row["compiled"], 1);
    EXPECT_EQ(row["attempts"], row["level"] == 1 ? 2 : 1);
    if (row["level"] == 1) {
      EXPECT_EQ(row["correct"], 1);
      EXPECT_EQ(row["pass_rate"], 1.0);
      EXPECT_TRUE(row["geomean_speedup"].is_number());
      EXPECT_GT(row["score"].get<double>(), 50.0);
    } else {
      EXPECT_EQ(row["correct"], 0);
      EXPECT_EQ(row["pass_rate"], 0.0);
      EXPECT_TRUE(row["geomean_speedup"].is_null());
      EXPECT_NEAR(row["score"].get<double>(), 20.0, 1e-9);  // compiled, nothing correct
    }
  }
  EXPECT_EQ(j["rows"][0]["arm"], "off");
  EXPECT_EQ(j["rows"][2]["arm"], "active:local");
  // The operator rows name the kernel each arm ended with.
  bool right_kernel = false;
  for (const json& t : j["tasks"]) right_kernel = right_kernel || (t["task"] == "aff_one" && t["kernel"].get<std::string>().find("02_right") != std::string::npos);
  EXPECT_TRUE(right_kernel) << j["tasks"].dump();
  // Each arm learned alone: a workspace per arm, a run per level in each.
  for (const char* arm : {"off", "active:local"}) {
    workspace::Workspace ws = workspace::Workspace::open(study_dir / "arms" / arm);
    EXPECT_EQ(ws.runs(10).size(), 2u) << arm;
  }
  // The files an engineer reads, and the one the window reads back.
  for (const char* f : {"study.json", "study.md", "pass_rate.svg", "speedup.svg"}) EXPECT_TRUE(fs::exists(study_dir / f)) << f;
  json without_dir = j;
  without_dir.erase("dir");
  EXPECT_EQ(study::to_json(study::read_study(study_dir)), without_dir);
}

TEST_F(StudyCli, BadArgumentsAreRefusedBeforeAnythingRuns) {
  std::string out, err;
  EXPECT_EQ(cli({"study", "--suite", (dir / "suite").string(), "--arms", "active,hope"}, out, err), 2);
  EXPECT_NE(err.find("--arms"), std::string::npos) << err;
  EXPECT_EQ(cli({"study", "--suite", (dir / "suite").string(), "--levels", "7", "--out", (dir / "s7").string()}, out, err), 2);
  EXPECT_NE(err.find("level 7"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(dir / "s7" / "arms"));
  EXPECT_EQ(cli({"study", "--suite", (dir / "suite").string(), "--memory", "off"}, out, err), 2);
  EXPECT_NE(err.find("--arms"), std::string::npos) << err;
}

}  // namespace
