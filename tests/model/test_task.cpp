#include <gtest/gtest.h>

#include <limits>
#include <cmath>
#include <cstring>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/model/check.h"
#include "kope/model/inputs.h"
#include "kope/model/suite.h"
#include "kope/model/task.h"
#include "kope_kernel.h"
#include "test_support.h"

using namespace kope;
using nlohmann::json;

namespace {

std::string error_of(const json& j) {
  try {
    parse_task(j, "t.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

json affine() { return json::parse(test::affine_task_json()); }

// The error of a task given as text (for what a json value cannot hold: 1e999, a 20-digit integer, depth).
std::string text_error(const std::string& text) {
  try {
    parse_task_text(text, "t.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The affine task's text with `from` replaced by `to` (once).
std::string affine_with(const std::string& from, const std::string& to) {
  std::string t = test::affine_task_json();
  auto at = t.find(from);
  if (at == std::string::npos) throw std::runtime_error("no '" + from + "' in the affine task");
  return t.replace(at, from.size(), to);
}

// Expects an error naming the file and `pointer`, and mentioning `words`; never an internal error.
void expect_clear(const std::string& e, const std::string& pointer, const std::string& words = "") {
  EXPECT_FALSE(e.empty()) << "accepted; expected an error at " << pointer;
  EXPECT_NE(e.find("t.json"), std::string::npos) << e;
  EXPECT_NE(e.find(pointer), std::string::npos) << e;
  if (!words.empty()) {
    EXPECT_NE(e.find(words), std::string::npos) << e;
  }
}

}  // namespace

TEST(Task, ParsesTheAffineTask) {
  Task t = test::affine_task();
  EXPECT_EQ(t.name, "affine");
  ASSERT_EQ(t.inputs.size(), 1u);
  EXPECT_EQ(t.inputs[0].dtype, DType::F32);
  EXPECT_EQ(t.cases.size(), 3u);
  EXPECT_EQ(t.digest.size(), 64u);
  EXPECT_TRUE(reference_is_fp32_baseline(t));
  ConcreteCase c = resolve_case(t, t.cases[1]);
  EXPECT_EQ(c.inputs[0].numel, 1001);
  EXPECT_EQ(c.inputs[0].init.kind, InitSpec::Kind::Uniform);
  EXPECT_DOUBLE_EQ(c.outputs[0].threshold, default_threshold(DType::F32));
}

TEST(Task, DigestChangesWithContent) {
  json j = affine();
  std::string d1 = parse_task(j, "a").digest;
  j["cases"][0]["seed"] = 99;
  EXPECT_NE(parse_task(j, "a").digest, d1);
}

TEST(Task, ErrorsNameTheFileAndTheField) {
  json j = affine();
  j.erase("reference");
  std::string e = error_of(j);
  EXPECT_NE(e.find("t.json"), std::string::npos) << e;
  EXPECT_NE(e.find("missing required field \"reference\""), std::string::npos) << e;

  j = affine();
  j["inputs"][0]["dtype"] = "fp8";
  e = error_of(j);
  EXPECT_NE(e.find("/inputs/0/dtype"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown dtype \"fp8\""), std::string::npos) << e;

  j = affine();
  j["cases"][2]["dims"]["N"] = -3;
  e = error_of(j);
  EXPECT_NE(e.find("/cases/2/dims/N"), std::string::npos) << e;
  EXPECT_NE(e.find("positive integer"), std::string::npos) << e;

  j = affine();
  j["cases"][1]["dims"] = json::object({{"M", 3}});
  e = error_of(j);
  EXPECT_NE(e.find("case 'odd'"), std::string::npos) << e;
  EXPECT_NE(e.find("dimension \"N\""), std::string::npos) << e;

  j = affine();
  j["cases"][1]["name"] = "one";
  EXPECT_NE(error_of(j).find("used twice"), std::string::npos);

  j = affine();
  j["outputs"][0]["shpe"] = json::array();
  e = error_of(j);
  EXPECT_NE(e.find("unknown field \"shpe\""), std::string::npos) << e;

  j = affine();
  j["cases"][0]["attrs"] = {{"alpha", 1.0}};
  EXPECT_NE(error_of(j).find("not declared"), std::string::npos);

  j = affine();
  j["inputs"][0]["init"] = {{"dist", "cauchy"}};
  EXPECT_NE(error_of(j).find("unknown distribution"), std::string::npos);

  j = affine();
  j["inputs"][0]["init"] = {{"dist", "uniform"}, {"low", 2}, {"high", 1}};
  EXPECT_NE(error_of(j).find("must be below"), std::string::npos);

  j = affine();
  j["outputs"][0]["dtype"] = "fp16";
  EXPECT_NE(error_of(j).find("explicit \"baseline\""), std::string::npos);
}

TEST(Task, BadJsonNamesTheFile) {
  test::TempDir dir;
  test::write_text(dir / "broken.json", "{\"name\": \"x\",");
  try {
    load_task_file(dir / "broken.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("broken.json"), std::string::npos) << m;
    EXPECT_NE(m.find("not valid JSON"), std::string::npos) << m;
  }
  EXPECT_THROW(load_task_file(dir / "absent.json"), Error);
}

TEST(Task, CountsAndProductsExpand) {
  json j = affine();
  j["inputs"][0]["shape"] = {"M", "2*H"};
  j["inputs"][0]["count"] = "L";
  j["outputs"][0]["shape"] = json::array();
  j["outputs"][0]["count"] = "L";
  j["cases"] = json::array({{{"name", "c"}, {"dims", {{"M", 3}, {"H", 5}, {"L", 4}}}}});
  Task t = parse_task(j, "t");
  ConcreteCase c = resolve_case(t, t.cases[0]);
  ASSERT_EQ(c.inputs.size(), 4u);
  EXPECT_EQ(c.inputs[3].name, "x.3");
  EXPECT_EQ(c.inputs[0].shape, (std::vector<int64_t>{3, 10}));
  EXPECT_EQ(c.inputs[0].numel, 30);
  ASSERT_EQ(c.outputs.size(), 4u);
  EXPECT_EQ(c.outputs[0].numel, 1);  // a scalar
  // the runner's JSON form carries everything
  ConcreteCase back = concrete_case_from_json(to_json(c));
  EXPECT_EQ(back.inputs[2].shape, c.inputs[2].shape);
  EXPECT_EQ(back.outputs.size(), 4u);
}

TEST(Task, CaseOverridesInitAndAttrs) {
  json j = affine();
  j["attrs"] = {{"alpha", 0.5}};
  j["cases"][0]["attrs"] = {{"alpha", 2.0}};
  j["cases"][0]["init"] = {{"x", {{"dist", "normal"}, {"mean", 1}, {"std", 2}}}};
  Task t = parse_task(j, "t");
  ConcreteCase c0 = resolve_case(t, t.cases[0]);
  ConcreteCase c1 = resolve_case(t, t.cases[1]);
  EXPECT_EQ(c0.attrs.at(0).second, 2.0);
  EXPECT_EQ(c1.attrs.at(0).second, 0.5);
  EXPECT_EQ(c0.inputs[0].init.kind, InitSpec::Kind::Normal);
  EXPECT_EQ(c1.inputs[0].init.kind, InitSpec::Kind::Uniform);
}

TEST(Task, CaseDtypesBelowMemoryBoundAndLibrary) {
  json j = affine();
  j["inputs"].push_back({{"name", "idx"}, {"dtype", "int64"}, {"shape", {"N"}},
                         {"init", {{"dist", "randint"}, {"low", 0}, {"below", "N"}}}});
  j["outputs"].push_back({{"name", "q"}, {"dtype", "int8"}, {"shape", {"N"}}});
  j["reference"] = {"#include \"kope_kernel.h\"", "int kope_kernel(const kope_args* a) { (void)kope_load; return 0; }"};
  j["cases"][1]["dtypes"] = {{"x", "bf16"}, {"idx", "int32"}};
  j["cases"][2]["memory_bound"] = true;
  j["library"] = {{"cpu", {{"source", {"int kope_kernel(const kope_args*) { return 0; }"}}, {"link", {"torch_cpu"}}}},
                  {"cuda", nullptr}, {"why", "no library for cuda here"}};
  const json semantic = j;
  Task t = parse_task(j, "t.json");
  const ConcreteCase odd = resolve_case(t, t.cases[1]);
  EXPECT_EQ(odd.inputs[0].dtype, DType::BF16);
  EXPECT_EQ(odd.outputs[0].threshold, std::ldexp(1.0, -13));    // y keeps fp32
  EXPECT_EQ(odd.inputs[1].dtype, DType::I32);
  EXPECT_EQ(odd.inputs[1].init.kind, InitSpec::Kind::RandInt);
  EXPECT_EQ(odd.inputs[1].init.b, 1000.0);                      // below N = 1001: [0, 1000]
  EXPECT_EQ(odd.outputs[1].dtype, DType::I8);
  EXPECT_EQ(odd.outputs[1].threshold, 0.0);
  EXPECT_FALSE(t.cases[1].memory_bound);
  EXPECT_TRUE(t.cases[2].memory_bound);
  EXPECT_TRUE(resolve_case(t, t.cases[2]).memory_bound);
  EXPECT_FALSE(t.cases[2].large);
  json marked = semantic;
  marked["cases"][2]["large"] = true;
  EXPECT_TRUE(parse_task(marked, "t.json").cases[2].large);
  ASSERT_TRUE(t.library.at("cpu").has_value());
  EXPECT_EQ(t.library.at("cpu")->link, std::vector<std::string>{"torch_cpu"});
  EXPECT_EQ(t.library.at("cpu")->threads, 1);
  EXPECT_FALSE(t.library.at("cuda").has_value());
  EXPECT_EQ(t.library_why, "no library for cuda here");
  // The library is left out of the digest; the rest is not.
  json other = semantic;
  other["library"]["cpu"]["source"] = {"int kope_kernel(const kope_args*) { return 1; }"};
  EXPECT_EQ(parse_task(other, "t.json").digest, t.digest);
  other["cases"][2]["memory_bound"] = false;
  EXPECT_NE(parse_task(other, "t.json").digest, t.digest);

  // Every drawn index stays inside its dimension.
  std::vector<int32_t> idx(1001);
  generate_tensor(odd.inputs[1], odd.seed, 1, idx.data());
  for (int32_t v : idx) ASSERT_TRUE(v >= 0 && v <= 1000) << v;
}

TEST(Task, NewFieldsFailWithTheirPointer) {
  json j = affine();
  j["cases"][0]["dtypes"] = {{"nope", "fp16"}};
  EXPECT_NE(error_of(j).find("/cases/0/dtypes/nope"), std::string::npos) << error_of(j);
  j = affine();
  j["cases"][0]["dtypes"] = {{"x", "fp12"}};
  EXPECT_NE(error_of(j).find("unknown dtype"), std::string::npos) << error_of(j);
  j = affine();  // the affine reference reads typed pointers: a dtype change needs kope_load or a baseline
  j["cases"][0]["dtypes"] = {{"x", "fp16"}};
  EXPECT_NE(error_of(j).find("kope_load"), std::string::npos) << error_of(j);
  j = affine();
  j["cases"][0]["memory_bound"] = 1;
  EXPECT_NE(error_of(j).find("/cases/0/memory_bound"), std::string::npos) << error_of(j);
  j = affine();
  j["cases"][1]["large"] = "yes";
  EXPECT_NE(error_of(j).find("/cases/1/large"), std::string::npos) << error_of(j);
  j = affine();
  j["inputs"][0]["init"] = {{"dist", "randint"}, {"low", 5}, {"below", "N"}};  // case N = 1: empty range
  EXPECT_NE(error_of(j).find("empty range"), std::string::npos) << error_of(j);
  j = affine();
  j["library"] = {{"cpu", nullptr}};
  EXPECT_NE(error_of(j).find("/library/why"), std::string::npos) << error_of(j);
  j = affine();
  j["library"] = {{"cpu", {{"source", "int f();"}}}};
  EXPECT_NE(error_of(j).find("/library/cpu/source"), std::string::npos) << error_of(j);
  j = affine();
  j["library"] = {{"cpu", {{"source", "int kope_kernel(const kope_args*);"}, {"include_dirs", {"rel/dir"}}}}};
  EXPECT_NE(error_of(j).find("/library/cpu/include_dirs/0"), std::string::npos) << error_of(j);
  j = affine();
  j["library"] = {{"cpu", {{"source", "int kope_kernel(const kope_args*);"}, {"link", {"torch;rm"}}}}};
  EXPECT_NE(error_of(j).find("/library/cpu/link/0"), std::string::npos) << error_of(j);
}

TEST(Inputs, DeterministicPerSeedAndRoundedToDType) {
  ConcreteTensor t;
  t.dtype = DType::F16;
  t.numel = 257;
  t.init = {InitSpec::Kind::Uniform, -3.0, 3.0, ""};
  std::vector<uint16_t> a(257), b(257), c(257);
  generate_tensor(t, 7, 0, a.data());
  generate_tensor(t, 7, 0, b.data());
  generate_tensor(t, 8, 0, c.data());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (uint16_t h : a) {
    float v = kope_f16_to_f32(h);
    EXPECT_GE(v, -3.0f);
    EXPECT_LE(v, 3.0f);
  }
  ConcreteTensor m;
  m.dtype = DType::U8;
  m.numel = 10000;
  m.init = {InitSpec::Kind::Bernoulli, 0.25, 0.0, ""};
  std::vector<uint8_t> mask(10000);
  generate_tensor(m, 1, 1, mask.data());
  int ones = 0;
  for (uint8_t v : mask) {
    ASSERT_TRUE(v == 0 || v == 1);
    ones += v;
  }
  EXPECT_NEAR(ones / 10000.0, 0.25, 0.03);
}

TEST(Suite, EmbeddedHasTheEightL1Operators) {
  Suite s = Suite::embedded().at_levels({1});
  std::set<std::string> names;
  for (const Task& t : s.tasks()) {
    names.insert(t.name);
    EXPECT_EQ(t.level, 1) << t.name;
    EXPECT_GE(t.cases.size(), 4u) << t.name;
    EXPECT_FALSE(embedded_candidates(t.name).empty()) << t.name << " has no shipped candidate";
    for (const auto& c : embedded_candidates(t.name)) EXPECT_FALSE(c.thought.empty()) << c.name;
  }
  for (const char* op : {"exp", "foreach_addcdiv_scalar", "foreach_norm", "gelu", "masked_scale", "mish", "sigmoid",
                         "swi_glu"})
    EXPECT_TRUE(names.count(op)) << op;
}

TEST(Suite, FromDirAndResolve) {
  test::TempDir dir;
  test::write_text(dir / "a" / "affine.json", test::affine_task_json());
  Suite s = Suite::from_dir(dir.path());
  ASSERT_EQ(s.tasks().size(), 1u);
  EXPECT_EQ(resolve_task("affine", s).name, "affine");
  EXPECT_EQ(resolve_task((dir / "a" / "affine.json").string(), Suite::embedded()).name, "affine");
  try {
    resolve_task("nosuch", s);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("tasks: affine"), std::string::npos) << e.what();
  }
  test::write_text(dir / "b" / "dup.json", test::affine_task_json());
  EXPECT_THROW(Suite::from_dir(dir.path()), Error);
  EXPECT_THROW(Suite::from_dir(dir / "missing"), Error);
}

TEST(Suite, ThoughtLine) {
  EXPECT_EQ(thought_of("// thought: unroll by four\nint x;"), "unroll by four");
  EXPECT_EQ(thought_of("int x;"), "");
}

// ---- Bad input: task files a hostile or careless author can write. Each is a clear error, never a crash.

TEST(TaskBadInput, DeeplyNestedJsonIsAnErrorNotACrash) {
  const int n = 100000;
  std::string deep = std::string(n, '[') + std::string(n, ']');
  std::string e = text_error(deep);
  EXPECT_NE(e.find("t.json"), std::string::npos) << e;
  EXPECT_NE(e.find("nested more than 64"), std::string::npos) << e;
  // Inside an allowed free-form field, and with braces.
  e = text_error(affine_with("\"level\": 1,", "\"level\": 1, \"doc\": " + std::string(n, '{') + "\"\"" +
                                                  std::string(n, '}') + ","));
  EXPECT_NE(e.find("nested more than 64"), std::string::npos) << e;
  // Brackets inside strings do not count.
  EXPECT_EQ(text_error(affine_with("\"level\": 1,", "\"level\": 1, \"doc\": \"" + std::string(1000, '[') + "\",")), "");
  // A json value built in memory is checked too.
  json j = affine();
  json v = json::array();
  for (int i = 0; i < 200; ++i) v = json::array({v});
  j["doc"] = v;
  EXPECT_NE(error_of(j).find("nested more than 64"), std::string::npos);
  j["doc"] = json::array({json::array({1})});
  EXPECT_EQ(error_of(j), "");
}

TEST(TaskBadInput, ShapeLiteralThatOverflowsNamesTheField) {
  // Today: "internal error: stoll".
  expect_clear(text_error(affine_with("\"shape\": [\"N\"]}],", "\"shape\": [\"99999999999999999999\"]}],")),
               "/outputs/0/shape/0", "99999999999999999999");
  expect_clear(text_error(affine_with("\"shape\": [\"N\"]}],", "\"shape\": [\"N*99999999999999999999\"]}],")),
               "/outputs/0/shape/0");
  // As a JSON number beyond int64 (and beyond uint64: a float).
  expect_clear(text_error(affine_with("\"shape\": [\"N\"]}],", "\"shape\": [18446744073709551615]}],")),
               "/outputs/0/shape/0", "a dimension");
  expect_clear(text_error(affine_with("\"shape\": [\"N\"]}],", "\"shape\": [1e300]}],")), "/outputs/0/shape/0");
  expect_clear(text_error(affine_with("\"shape\": [\"N\"]}],", "\"shape\": [2.5]}],")), "/outputs/0/shape/0");
  expect_clear(text_error(affine_with("\"shape\": [\"N\"]}],", "\"shape\": [-4]}],")), "/outputs/0/shape/0");
}

TEST(TaskBadInput, DimsAreBoundedAndTheirProductCannotOverflow) {
  json j = affine();
  j["cases"][0]["dims"]["N"] = 0;
  expect_clear(error_of(j), "/cases/0/dims/N", "positive");
  j = affine();
  j["cases"][0]["dims"]["N"] = std::numeric_limits<uint64_t>::max();
  expect_clear(error_of(j), "/cases/0/dims/N");
  j = affine();
  j["cases"][0]["dims"]["N"] = 2.5;
  expect_clear(error_of(j), "/cases/0/dims/N");
  // Each factor allowed alone, the product too large: an error naming the case, never a wrapped product.
  j = affine();
  j["inputs"][0]["shape"] = {"N*N*N"};
  j["outputs"][0]["shape"] = {"N*N*N"};
  j["cases"][0]["dims"]["N"] = int64_t{1} << 22;
  std::string e = error_of(j);
  EXPECT_NE(e.find("case 'one'"), std::string::npos) << e;
  EXPECT_NE(e.find("/cases/0"), std::string::npos) << e;
  EXPECT_NE(e.find("/inputs/0/shape/0"), std::string::npos) << e;
  EXPECT_NE(e.find("too large"), std::string::npos) << e;
  j["inputs"][0]["shape"] = {"N", "N", "N"};
  j["outputs"][0]["shape"] = {"N", "N", "N"};
  e = error_of(j);
  EXPECT_NE(e.find("case 'one'"), std::string::npos) << e;
  EXPECT_NE(e.find("more than"), std::string::npos) << e;
}

TEST(TaskBadInput, SeedsAreNonNegativeIntegersBelowTwoToThe64) {
  json j = affine();
  j["cases"][1]["seed"] = -1;
  expect_clear(error_of(j), "/cases/1/seed");
  j["cases"][1]["seed"] = 1.5;
  expect_clear(error_of(j), "/cases/1/seed");
  j["cases"][1]["seed"] = "7";
  expect_clear(error_of(j), "/cases/1/seed");
  expect_clear(text_error(affine_with("\"seed\": 2}", "\"seed\": 99999999999999999999999}")), "/cases/1/seed");
  j["cases"][1]["seed"] = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(error_of(j), "");
}

TEST(TaskBadInput, ThresholdsAreFiniteAndPositive) {
  for (json bad : {json(-1e-3), json("small")}) {  // 0 is allowed: exact (L2's cummin values)
    json j = affine();
    j["outputs"][0]["threshold"] = bad;
    expect_clear(error_of(j), "/outputs/0/threshold");
  }
  expect_clear(text_error(affine_with("\"outputs\": [{\"name\": \"y\", \"dtype\": \"fp32\",",
                                      "\"outputs\": [{\"name\": \"y\", \"dtype\": \"fp32\", \"threshold\": 1e999,")),
               "/outputs/0/threshold", "finite");
  json j = affine();
  j["outputs"][0]["threshold"] = 1e-4;
  EXPECT_EQ(error_of(j), "");
}

TEST(TaskBadInput, AttrsAreFinite) {
  expect_clear(text_error(affine_with("\"cases\": [", "\"attrs\": {\"alpha\": 1e999}, \"cases\": [")), "/attrs/alpha",
               "finite");
  expect_clear(text_error(affine_with("\"cases\": [", "\"attrs\": {\"alpha\": -1e999}, \"cases\": [")), "/attrs/alpha");
  json j = affine();
  j["attrs"] = {{"alpha", "big"}};
  expect_clear(error_of(j), "/attrs/alpha");
  j["attrs"] = {{"alpha", 2.0}};
  j["cases"][0]["attrs"] = {{"alpha", json::array()}};
  expect_clear(error_of(j), "/cases/0/attrs/alpha");
}

TEST(TaskBadInput, InitParametersAreFiniteAndOrdered) {
  auto init_error = [](const json& init) {
    json j = affine();
    j["inputs"][0]["init"] = init;
    return error_of(j);
  };
  expect_clear(init_error({{"dist", "uniform"}, {"low", 1}, {"high", 1}}), "/inputs/0/init", "below");
  expect_clear(init_error({{"dist", "uniform"}, {"low", 3}, {"high", 1}}), "/inputs/0/init", "below");
  expect_clear(init_error({{"dist", "randint"}, {"low", 0}, {"high", 1e300}}), "/inputs/0/init");
  expect_clear(init_error({{"dist", "bernoulli"}, {"p", 1.5}}), "/inputs/0/init/p");
  expect_clear(init_error({{"dist", "bernoulli"}, {"p", -0.1}}), "/inputs/0/init/p");
  expect_clear(init_error({{"dist", "normal"}, {"std", -1}}), "/inputs/0/init/std");
  expect_clear(init_error({{"dist", "normal"}, {"mean", "zero"}}), "/inputs/0/init/mean");
  expect_clear(text_error(affine_with("\"low\": 1, \"high\": 3", "\"low\": -1e999, \"high\": 3")), "/inputs/0/init/low",
               "finite");
  EXPECT_EQ(init_error({{"dist", "bernoulli"}, {"p", 1.0}}), "");
  // A case's own init is checked the same way.
  json j = affine();
  j["cases"][2]["init"] = {{"x", {{"dist", "uniform"}, {"low", 5}, {"high", 5}}}};
  expect_clear(error_of(j), "/cases/2/init/x");
}

TEST(TaskBadInput, CountsAreBounded) {
  for (json count : {json(0), json(5000), json("99999999999999999999"), json(-2)}) {
    json j = affine();
    j["inputs"][0]["count"] = count;
    std::string e = error_of(j);
    EXPECT_NE(e.find("/inputs/0/count"), std::string::npos) << count.dump() << ": " << e;
  }
}

TEST(TaskBadInput, LevelIsASmallInteger) {
  for (json level : {json(-1), json(1e10), json(2.5), json("one")}) {
    json j = affine();
    j["level"] = level;
    expect_clear(error_of(j), "/level");
  }
}

TEST(TaskBadInput, CaseAndTaskNamesAreNamesNotPaths) {
  for (std::string bad : std::vector<std::string>{".", "..", "../evil", "a/b", "/abs", "a..b", "-rf", ".hidden", "", "a b", "x\\y",
                          std::string(101, 'a')}) {
    json j = affine();
    j["cases"][1]["name"] = bad;
    expect_clear(error_of(j), "/cases/1/name", "not a valid name");
    j = affine();
    j["name"] = bad;
    expect_clear(error_of(j), "/name", "not a valid name");
  }
  for (std::string good : std::vector<std::string>{"n1", "1k", "big_2.5", "case-3", "_x"}) {
    json j = affine();
    j["cases"][1]["name"] = good;
    EXPECT_EQ(error_of(j), "") << good;
    j["name"] = good;
    EXPECT_EQ(error_of(j), "") << good;
  }
}

TEST(TaskBadInput, InvalidUtf8InAFileIsAClearError) {
  std::string e = text_error(affine_with("y = 2 * x + 1", "y = 2 * x + 1 \xFF\xFE"));
  EXPECT_NE(e.find("t.json"), std::string::npos) << e;
  EXPECT_NE(e.find("not valid JSON"), std::string::npos) << e;
}

// Special values (issue 16): parsed, resolved per dtype, placed in seeded and fresh inputs alike, and a token the
// dtype cannot hold is an error naming the case and input.
TEST(Task, SpecialValuesArePlacedInSeededInputs) {
  json j = affine();
  j["cases"][1]["init"] = {{"x", {{"dist", "uniform"}, {"low", 1}, {"high", 3},
                                  {"special", {"nan", "inf", "-inf", "-0", "denormal", "max", 1e30}},
                                  {"special_fraction", 0.1}}}};
  const Task t = parse_task(j, "t.json");
  const ConcreteCase c = resolve_case(t, t.cases[1]);
  ASSERT_EQ(c.inputs[0].init.special.size(), 7u);
  std::vector<float> x(1001);
  generate_tensor(c.inputs[0], c.seed, 0, x.data());
  int nan = 0, pinf = 0, ninf = 0, negzero = 0, denorm = 0, mx = 0, big = 0, ordinary = 0;
  for (float v : x) {
    if (std::isnan(v)) ++nan;
    else if (v == INFINITY) ++pinf;
    else if (v == -INFINITY) ++ninf;
    else if (v == 0.0f && std::signbit(v)) ++negzero;
    else if (v == 0x1p-149f) ++denorm;
    else if (v == std::numeric_limits<float>::max()) ++mx;
    else if (v == 1e30f) ++big;
    else if (v >= 1.0f && v < 3.0f) ++ordinary;
  }
  EXPECT_GE(nan, 1);
  EXPECT_GE(pinf, 1);
  EXPECT_GE(ninf, 1);
  EXPECT_GE(negzero, 1);
  EXPECT_GE(denorm, 1);
  EXPECT_GE(mx, 1);
  EXPECT_GE(big, 1);
  EXPECT_EQ(nan + pinf + ninf + negzero + denorm + mx + big + ordinary, 1001);
  EXPECT_GT(ordinary, 850);  // about 10% special
  // The same seed gives the same bytes; the digest changed with the case.
  std::vector<float> again(1001);
  generate_tensor(c.inputs[0], c.seed, 0, again.data());
  EXPECT_EQ(std::memcmp(x.data(), again.data(), x.size() * 4), 0);
  EXPECT_NE(t.digest, parse_task(affine(), "t.json").digest);
}

TEST(Task, SpecialValuesTheDtypeCannotHoldAreErrors) {
  json j = affine();
  j["cases"][0]["init"] = {{"x", {{"dist", "uniform"}, {"special", {"nonsense"}}}}};
  EXPECT_NE(error_of(j).find("unknown special value"), std::string::npos) << error_of(j);
  j["cases"][0]["init"] = {{"x", {{"dist", "uniform"}, {"special", json::array()}}}};
  EXPECT_NE(error_of(j).find("/cases/0/init/x/special"), std::string::npos) << error_of(j);
  j["cases"][0]["init"] = {{"x", {{"dist", "uniform"}, {"special", {"nan"}}, {"special_fraction", 2}}}};
  EXPECT_NE(error_of(j).find("special_fraction"), std::string::npos) << error_of(j);
  j["cases"][0]["init"] = {{"x", {{"dist", "randint"}, {"low", 0}, {"high", 5}, {"special", {"nan"}}}}};
  j["cases"][0]["dtypes"] = {{"x", "int32"}};
  j["baseline"] = j["reference"];
  EXPECT_NE(error_of(j).find("needs a floating dtype"), std::string::npos) << error_of(j);
}

// Issue 16: every task of the suite has cases named special* that hold the special values its operator defines a
// result for (its summary says which, and which it leaves out), small enough to run on every test run.
TEST(Suite, EveryTaskHasSmallSpecialValueCases) {
  const Suite suite = Suite::embedded();
  for (const Task& t : suite.tasks()) {
    SCOPED_TRACE(t.name);
    EXPECT_NE(t.summary.find("Special values"), std::string::npos);
    int special_cases = 0, with_tokens = 0;
    for (const Case& c : t.cases) {
      if (c.name.rfind("special", 0) != 0) continue;
      ++special_cases;
      const ConcreteCase cc = resolve_case(t, c);
      int64_t elements = 0;
      bool tokens = false;
      for (const auto* list : {&cc.inputs, &cc.outputs})
        for (const auto& x : *list) {
          elements += x.numel;
          tokens = tokens || !x.init.special.empty();
        }
      with_tokens += tokens ? 1 : 0;
      EXPECT_LE(elements, int64_t{1} << 18) << c.name;
    }
    EXPECT_GE(special_cases, 1);
    EXPECT_GE(with_tokens, 1) << "no special* case places special values";
  }
}

// A finite golden beyond the output dtype's largest value is the infinity that storing it rounds to (IEEE round to
// nearest): an fp32 product FLT_MAX * 2 is inf, and a kernel that saturates to FLT_MAX is wrong. Inside the range,
// and at the largest value itself, the golden stays what it is.
TEST(Check, AGoldenBeyondTheDtypesRangeIsTheInfinityItRoundsTo) {
  const float inf = std::numeric_limits<float>::infinity(), fmax = std::numeric_limits<float>::max();
  const double golden[4] = {2.0 * fmax, -1e39, static_cast<double>(fmax), 1.5};
  float got[4] = {inf, -inf, fmax, 1.5f};
  OutputCheck c = check_output("y", DType::F32, got, golden, 4, 1e-4);
  EXPECT_TRUE(c.ok) << c.max_rel;
  EXPECT_EQ(c.max_ulps, 0.0);
  got[0] = fmax;  // saturated instead of overflowing
  c = check_output("y", DType::F32, got, golden, 4, 1e-4);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.worst_index, 0);
  EXPECT_EQ(c.expected, inf);
  got[0] = inf;
  got[2] = inf;  // FLT_MAX itself does not round up
  EXPECT_FALSE(check_output("y", DType::F32, got, golden, 4, 1e-4).ok);
  // fp16: 70000 rounds to inf (65520 and up do), 65504 is fp16's largest value.
  const double golden16[2] = {70000.0, 65504.0};
  const uint16_t inf16 = 0x7c00, max16 = 0x7bff;
  uint16_t got16[2] = {inf16, max16};
  EXPECT_TRUE(check_output("y", DType::F16, got16, golden16, 2, 1e-3).ok);
  got16[0] = max16;
  EXPECT_FALSE(check_output("y", DType::F16, got16, golden16, 2, 1e-3).ok);
  // fp64 outputs hold every golden: nothing is rounded.
  const double golden64[1] = {1e300};
  const double inf64[1] = {std::numeric_limits<double>::infinity()};
  EXPECT_FALSE(check_output("y", DType::F64, inf64, golden64, 1, 1e-9).ok);
}
