// Index outputs checked by what they point at ("index_of", issue 21), through the whole judge: a top-2 task whose
// rows tie everywhere. A kernel that breaks ties the other way than the reference passes the correctness call and
// every timed call (checked against the baseline's indices on fresh inputs); kernels with a wrong index fail,
// on the correctness call or a timed one.
#include <gtest/gtest.h>

#include <string>

#include "kope/eval/evaluator.h"
#include "kope/model/task.h"
#include "test_support.h"

using namespace kope;
using namespace kope::eval;
using namespace kope::exec;

namespace {

// top-2 of each row of x [R, N]; the reference takes the lower index on a tie. The kernels below share its shape.
const char* kTask = R"({
  "name": "top2_ties",
  "inputs": [{"name": "x", "dtype": "fp32", "shape": ["R", "N"], "init": {"dist": "randint", "low": 0, "high": 3}}],
  "outputs": [{"name": "values", "dtype": "fp32", "shape": ["R", "2"], "threshold": 0},
              {"name": "indices", "dtype": "int64", "shape": ["R", "2"], "index_of": {"input": "x", "axis": 1}}],
  "reference": ["#include \"kope_kernel.h\"",
    "int kope_kernel(const kope_args* a) {",
    "  const kope_tensor* x = &a->inputs[0];",
    "  const int64_t R = x->shape[0], N = x->shape[1];",
    "  int64_t* idx = (int64_t*)a->outputs[1].data;",
    "  for (int64_t r = 0; r < R; ++r) {",
    "    int64_t b0 = 0;",
    "    for (int64_t j = 1; j < N; ++j) if (kope_load(x, r * N + j) > kope_load(x, r * N + b0)) b0 = j;",
    "    int64_t b1 = b0 == 0 ? 1 : 0;",
    "    for (int64_t j = 0; j < N; ++j) if (j != b0 && kope_load(x, r * N + j) > kope_load(x, r * N + b1)) b1 = j;",
    "    idx[2 * r] = b0; idx[2 * r + 1] = b1;",
    "    kope_store(&a->outputs[0], 2 * r, kope_load(x, r * N + b0));",
    "    kope_store(&a->outputs[0], 2 * r + 1, kope_load(x, r * N + b1));",
    "  }",
    "  return 0;",
    "}"],
  "cases": [{"name": "r64_n16", "dims": {"R": 64, "N": 16}}, {"name": "r300_n7", "dims": {"R": 300, "N": 7}}]
})";

// The kernel's body between the row loop's braces; `pick` chooses b0 and b1 from the row `v`.
std::string kernel(const std::string& pick) {
  return "#include \"kope_kernel.h\"\n"
         "int kope_kernel(const kope_args* a) {\n"
         "  const int64_t R = a->inputs[0].shape[0], N = a->inputs[0].shape[1];\n"
         "  const float* x = (const float*)a->inputs[0].data;\n"
         "  float* val = (float*)a->outputs[0].data;\n"
         "  int64_t* idx = (int64_t*)a->outputs[1].data;\n"
         "  for (int64_t r = 0; r < R; ++r) {\n"
         "    const float* v = x + r * N;\n"
         "    int64_t b0 = 0, b1 = 0;\n" +
         pick +
         "    idx[2 * r] = b0; idx[2 * r + 1] = b1; val[2 * r] = v[b0]; val[2 * r + 1] = v[b1];\n"
         "  }\n"
         "  return 0;\n"
         "}\n";
}

// Ties to the higher index (>= instead of >), scanning from the end: other indices than the reference's.
const char* kLastOnTies =
    "    b0 = N - 1;\n"
    "    for (int64_t j = N - 1; j >= 0; --j) if (v[j] > v[b0]) b0 = j;\n"
    "    for (int64_t j = 0; j < N; ++j) if (v[j] >= v[b0]) b0 = j;\n"
    "    b1 = b0 == N - 1 ? N - 2 : N - 1;\n"
    "    for (int64_t j = 0; j < N; ++j) if (j != b0 && v[j] >= v[b1]) b1 = j;\n";

// The right values, each index found again by searching the row for its value: on a tied maximum both indices
// name the first element holding it.
const char* kSearchedByValue =
    "    for (int64_t j = 1; j < N; ++j) if (v[j] > v[b0]) b0 = j;\n"
    "    b1 = b0 == 0 ? 1 : 0;\n"
    "    for (int64_t j = 0; j < N; ++j) if (j != b0 && v[j] > v[b1]) b1 = j;\n"
    "    for (int64_t j = N - 1; j >= 0; --j) if (v[j] == v[b1]) b1 = j;\n"
    "    for (int64_t j = N - 1; j >= 0; --j) if (v[j] == v[b0]) b0 = j;\n";

// The right values, the indices one off (a pointer difference taken from the element before the row).
const char* kOneOff =
    "    for (int64_t j = 1; j < N; ++j) if (v[j] > v[b0]) b0 = j;\n"
    "    b1 = b0 == 0 ? 1 : 0;\n"
    "    for (int64_t j = 0; j < N; ++j) if (j != b0 && v[j] > v[b1]) b1 = j;\n"
    "    val[2 * r] = v[b0]; val[2 * r + 1] = v[b1]; idx[2 * r] = b0 + 1; idx[2 * r + 1] = b1 + 1;\n"
    "    continue;\n";

class IndexOutputs : public ::testing::Test {
 protected:
  test::TempDir dir;
  Evaluator ev{EvalPaths::under(dir.path())};
  Task task = parse_task_text(kTask, "test:top2_ties.json");

  EvalReport run(const std::string& pick, const std::string& name) {
    return ev.evaluate(task, kernel(pick), name, test::quick_options());
  }
};

}  // namespace

TEST_F(IndexOutputs, TiesBrokenTheOtherWayPassEveryCall) {
  const EvalReport r = run(kLastOnTies, "last_on_ties.cpp");
  ASSERT_TRUE(r.compiled) << r.compile.log;
  EXPECT_TRUE(r.correct()) << r.status();
  for (const CaseResult& c : r.cases) {
    EXPECT_TRUE(c.correct()) << c.name << ": " << c.message;
    EXPECT_TRUE(c.timed) << c.name;  // the timed calls ran, each checked against the baseline's indices
    EXPECT_GE(c.kernel_ns.size(), 3u) << c.name;
  }
}

TEST_F(IndexOutputs, TheSameElementTwiceFails) {
  const EvalReport r = run(kSearchedByValue, "searched_by_value.cpp");
  ASSERT_TRUE(r.compiled) << r.compile.log;
  EXPECT_FALSE(r.correct());
  ASSERT_FALSE(r.cases.empty());
  EXPECT_EQ(r.cases[0].status, CaseStatus::Wrong);
  EXPECT_EQ(r.cases[0].failed_call, "correctness run");
  EXPECT_NE(r.cases[0].message.find("appears twice"), std::string::npos) << r.cases[0].message;
}

TEST_F(IndexOutputs, AnIndexAtAnotherValueFails) {
  const EvalReport r = run(kOneOff, "one_off.cpp");
  ASSERT_TRUE(r.compiled) << r.compile.log;
  EXPECT_FALSE(r.correct());
  ASSERT_FALSE(r.cases.empty());
  EXPECT_EQ(r.cases[0].status, CaseStatus::Wrong);
  EXPECT_NE(r.cases[0].message.find("output indices"), std::string::npos) << r.cases[0].message;
}
