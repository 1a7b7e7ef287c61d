// Index outputs checked by what they point at ("index_of", issue 21): the task key, and the check itself. A kernel
// that breaks a tie differently passes; an index at a different value, out of range, repeated, or off the
// golden's padding fails.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/model/check.h"
#include "kope/model/task.h"

using namespace kope;
using nlohmann::json;

namespace {

// top-2 of x [R, N] along the last axis: values and int64 indices into x.
json topk_task(const json& index_of) {
  json out_idx = {{"name", "idx"}, {"dtype", "int64"}, {"shape", {"R", "K"}}};
  if (!index_of.is_null()) out_idx["index_of"] = index_of;
  return {{"name", "top"},
          {"inputs", {{{"name", "x"}, {"dtype", "fp32"}, {"shape", {"R", "N"}}}}},
          {"outputs", {{{"name", "val"}, {"dtype", "fp32"}, {"shape", {"R", "K"}}}, out_idx}},
          {"reference", "int kope_kernel(const kope_args* a) { return 0; }"},
          {"cases", {{{"name", "c"}, {"dims", {{"R", 2}, {"N", 5}, {"K", 2}}}}}}};
}

std::string parse_error(const json& j) {
  try {
    parse_task(j, "test:top.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The case's tensors by hand: x [2, 5] indexed along axis 1 by idx [2, 2].
struct Top2 {
  ConcreteTensor x, idx;
  Top2() {
    x.name = "x";
    x.dtype = DType::F32;
    x.shape = {2, 5};
    x.numel = 10;
    idx.name = "idx";
    idx.dtype = DType::I64;
    idx.shape = {2, 2};
    idx.numel = 4;
    idx.index_of = 0;
    idx.index_axis = 1;
  }
  OutputCheck check(const std::vector<float>& xs, const std::vector<int64_t>& got, const std::vector<double>& ref) {
    return check_index_output(idx, got.data(), ref.data(), x, xs.data());
  }
};

const float kNaN = std::numeric_limits<float>::quiet_NaN();

}  // namespace

TEST(IndexOf, ParsesAndResolvesToTheInputAndAxis) {
  const Task t = parse_task(topk_task({{"input", "x"}, {"axis", -1}}), "test:top.json");
  ASSERT_TRUE(t.outputs[1].index_of.has_value());
  EXPECT_EQ(t.outputs[1].index_of->input, "x");
  EXPECT_EQ(t.outputs[1].index_of->axis, 1);
  const ConcreteCase c = resolve_case(t, t.cases[0]);
  EXPECT_EQ(c.outputs[0].index_of, -1);
  EXPECT_EQ(c.outputs[1].index_of, 0);
  EXPECT_EQ(c.outputs[1].index_axis, 1);
  const ConcreteCase back = concrete_case_from_json(to_json(c));  // what kope-runner's job file carries
  EXPECT_EQ(back.outputs[1].index_of, 0);
  EXPECT_EQ(back.outputs[1].index_axis, 1);
  EXPECT_FALSE(to_json(c)["outputs"][0].contains("index_of"));  // other outputs' JSON unchanged
}

TEST(IndexOf, BadDeclarationsNameTheField) {
  EXPECT_NE(parse_error(topk_task({{"input", "y"}, {"axis", 1}})).find("/outputs/1/index_of/input"), std::string::npos);
  EXPECT_NE(parse_error(topk_task({{"input", "x"}, {"axis", 2}})).find("/outputs/1/index_of/axis"), std::string::npos);
  EXPECT_NE(parse_error(topk_task({{"input", "x"}})).find("axis"), std::string::npos);
  EXPECT_NE(parse_error(topk_task({{"input", "x"}, {"axis", 1}, {"order", 1}})).find("order"), std::string::npos);
  json floaty = topk_task({{"input", "x"}, {"axis", 1}});
  floaty["outputs"][1]["dtype"] = "fp32";
  EXPECT_NE(parse_error(floaty).find("integer dtype"), std::string::npos);
  json rank = topk_task({{"input", "x"}, {"axis", 0}});
  rank["outputs"][1]["shape"] = {"K"};
  EXPECT_NE(parse_error(rank).find("same rank"), std::string::npos);
  json shape = topk_task({{"input", "x"}, {"axis", 1}});
  shape["outputs"][1]["shape"] = {"K", "K"};  // 2 rows where x has R = 2: agrees; make R differ
  shape["cases"][0]["dims"]["R"] = 3;
  EXPECT_NE(parse_error(shape).find("shapes must agree"), std::string::npos);
}

TEST(IndexOf, ATieBrokenTheOtherWayPasses) {
  Top2 t;
  const std::vector<float> x = {5, 1, 5, 3, 5,   // row 0: three 5s, any two are the top 2
                                2, 7, 0, 7, -0.0f};
  EXPECT_TRUE(t.check(x, {0, 2, 1, 3}, {0, 2, 1, 3}).ok);
  EXPECT_TRUE(t.check(x, {4, 0, 3, 1}, {0, 2, 1, 3}).ok);  // other 5s, other order among the 7s
  EXPECT_TRUE(t.check(x, {2, 4, 3, 1}, {0, 2, 1, 3}).ok);
}

TEST(IndexOf, AnIndexAtAnotherValueFailsAndSaysWhere) {
  Top2 t;
  const std::vector<float> x = {5, 1, 5, 3, 5, 2, 7, 0, 7, 1};
  const OutputCheck c = t.check(x, {0, 3, 1, 3}, {0, 2, 1, 3});  // x[0][3] = 3, not 5
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.worst_index, 1);
  EXPECT_EQ(c.expected, 2.0);
  EXPECT_EQ(c.got, 3.0);
  EXPECT_NE(c.note.find("points at x = 3 where index 2 points at 5"), std::string::npos) << c.note;
  EXPECT_NE(describe_check(c).find("first at element 1"), std::string::npos) << describe_check(c);
}

TEST(IndexOf, RepeatedAndOutOfRangeIndicesFail) {
  Top2 t;
  const std::vector<float> x = {5, 1, 5, 3, 5, 2, 7, 0, 7, 1};
  const OutputCheck twice = t.check(x, {0, 0, 1, 3}, {0, 2, 1, 3});  // both point at a 5: one element twice
  EXPECT_FALSE(twice.ok);
  EXPECT_NE(twice.note.find("appears twice"), std::string::npos) << twice.note;
  EXPECT_FALSE(t.check(x, {0, 2, 1, 5}, {0, 2, 1, 3}).ok);   // 5 is outside [0, 5)
  EXPECT_FALSE(t.check(x, {0, 2, 1, -1}, {0, 2, 1, 3}).ok);
  EXPECT_FALSE(t.check(x, {0, 2, 1, 4}, {0, 2, 1, 3}).ok);   // x[1][4] = 1, not the second 7
}

TEST(IndexOf, NaNsMatchEachOtherAndPaddingIsExact) {
  Top2 t;
  const std::vector<float> x = {kNaN, 1, kNaN, 3, 5, 2, 7, 0, 7, 1};
  EXPECT_TRUE(t.check(x, {2, 0, 1, 3}, {0, 2, 1, 3}).ok);   // NaN ties with NaN
  EXPECT_FALSE(t.check(x, {4, 0, 1, 3}, {0, 2, 1, 3}).ok);  // 5 is not NaN
  // The golden's -1 is padding (NMS keeps fewer boxes than its output holds): the kernel must write -1 there.
  EXPECT_TRUE(t.check(x, {0, -1, 1, -1}, {0, -1, 1, -1}).ok);
  EXPECT_FALSE(t.check(x, {0, 2, 1, -1}, {0, -1, 1, -1}).ok);
  EXPECT_FALSE(t.check(x, {0, -1, 1, 3}, {0, 2, 1, 3}).ok);
}

TEST(IndexOf, CaseOutputDispatchesOnTheKey) {
  const Task task = parse_task(topk_task({{"input", "x"}, {"axis", 1}}), "test:top.json");
  const ConcreteCase c = resolve_case(task, task.cases[0]);
  const std::vector<float> x = {5, 1, 5, 3, 5, 2, 7, 0, 7, 1};
  const std::vector<int64_t> got = {4, 2, 3, 1};
  const std::vector<double> ref = {0, 2, 1, 3};
  EXPECT_TRUE(check_case_output(c, 1, got.data(), ref.data(), 0.0, {x.data()}).ok);
  // The same indices compared as plain integers (no "index_of") fail: the mechanism is what lets ties through.
  EXPECT_FALSE(check_output("idx", DType::I64, got.data(), ref.data(), 4, 0.0).ok);
}
