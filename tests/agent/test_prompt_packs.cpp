// The prompt packs of every device (resources/prompts/<device>/, embedded in the library and the `kope` binary)
// and the ranking of their documents: what a state makes relevant, what a tight budget or quota admits, and
// what the prompt says it left out.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/agent/context.h"
#include "kope/agent/documents.h"
#include "kope/agent/llm_policy.h"
#include "kope/agent/prompts.h"
#include "kope/agent/store.h"
#include "kope/base/error.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"
#include "scripted_llm_server.h"
#include "test_support.h"

using namespace kope;
using namespace kope::agent;
using namespace kope::workspace;
using namespace kope::loop;

namespace {

const std::string::size_type npos = std::string::npos;

// "doc ascend/docs/alignment.md (feedback: 507015)" -> "docs/alignment.md"
std::string doc_of(const std::string& label) {
  const std::size_t slash = label.find('/'), end = label.find(' ', slash);
  return label.substr(slash + 1, end == npos ? npos : end - slash - 1);
}

std::vector<std::string> order(const std::vector<ContextItem>& items) {
  std::vector<std::string> v;
  for (const auto& c : items) v.push_back(doc_of(c.label));
  return v;
}

const ContextItem& find_doc(const std::vector<ContextItem>& items, const std::string& doc) {
  auto it = std::find_if(items.begin(), items.end(), [&](const ContextItem& c) { return doc_of(c.label) == doc; });
  if (it == items.end()) throw Error("no " + doc + " among the ranked documents");
  return *it;
}

DocState state_of(const Task& t, const std::string& feedback = "") { return {t.name + "\n" + t.summary, feedback}; }

// A crash of the kind an unaligned tail copy gives on a board.
const char* kAlignmentCrash =
    "case odd: crash: aclrtSynchronizeStream returned 507015 (ACL_ERROR_RT_AICORE_EXCEPTION): EZ9999: Inner Error! "
    "there is an exception of fftsplus aicore error, core id is 7 (DataCopy of 1001 fp32 elements, unaligned tail)";

}  // namespace

TEST(PromptPacks, EveryDeviceLoadsItsOwnPackFromTheEmbeddedResources) {
  struct Want {
    std::string device, entry;
    std::vector<std::string> docs;
  };
  const std::vector<Want> wants = {
      {"cpu", "int kope_kernel(const kope_args* a)",
       {"docs/memory.md", "docs/mistakes.md", "docs/optimisation.md", "docs/threads.md", "docs/vector_isa.md"}},
      {"cuda", "int kope_cuda_kernel(const kope_args* a, cudaStream_t s)",
       {"docs/architectures.md", "docs/memory_access.md", "docs/mistakes.md", "docs/occupancy.md", "docs/reductions.md",
        "docs/shared_memory.md", "docs/tensor_cores.md"}},
      {"ascend", "int kope_ascend_kernel(const kope_args* a, void* stream)",
       {"docs/alignment.md", "docs/cube_matmul.md", "docs/failures.md", "docs/kernel_structure.md", "docs/pipeline.md",
        "docs/tiling.md", "docs/vector_api.md"}},
  };
  for (const Want& w : wants) {
    SCOPED_TRACE(w.device);
    const PromptTemplates t = PromptTemplates::load(w.device, std::nullopt);
    EXPECT_EQ(t.origin, "embedded");
    EXPECT_NE(t.system.find("{{device}}"), npos);
    // The same placeholders as the CPU's user template: render() fills every one of them.
    for (const char* slot : {"{{task}}", "{{spec}}", "{{reference}}", "{{abi}}", "{{incumbent}}", "{{feedback}}",
                             "{{experience}}", "{{background}}", "{{target}}"})
      EXPECT_NE(t.user.find(slot), npos) << slot;
    EXPECT_NE(t.abi.find(w.entry), npos) << t.abi;
    std::vector<std::string> names;
    for (const auto& [name, text] : t.docs) {
      names.push_back(name);
      const PackDoc d = parse_doc(w.device + "/" + name, text);
      EXPECT_EQ(d.body.rfind("# ", 0), 0u) << name << ": a document opens with its title";
      EXPECT_NE(d.body.find("Written against"), npos) << name << ": says what version it was written for";
      EXPECT_NE(d.body.find("```"), npos) << name << ": carries a small example";
      EXPECT_GE(d.body.size(), 1000u) << name;
      EXPECT_LE(d.body.size(), 4200u) << name << ": focused enough for Assemble to admit some and not others";
    }
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, w.docs);
  }
  // Each pack is its device's own: no CPU ABI in the accelerators' prompts.
  EXPECT_EQ(PromptTemplates::load("cuda", std::nullopt).abi.find("-march=native"), npos);
  EXPECT_EQ(PromptTemplates::load("ascend", std::nullopt).system.find("cudaStream_t"), npos);
}

TEST(PromptPacks, TheKopeBinaryEmbedsThem) {
  std::ifstream f(KOPE_CLI_BINARY, std::ios::binary);
  ASSERT_TRUE(f) << KOPE_CLI_BINARY;
  std::ostringstream s;
  s << f.rdbuf();
  const std::string bin = s.str();
  for (const char* title : {"# AscendC kernel structure", "# DataCopy alignment, tails and DataCopyPad",
                            "# Reductions with warp shuffles", "# Vector instruction sets on this machine"})
    EXPECT_NE(bin.find(title), npos) << title;
}

TEST(DocRanking, TheTaskAndTheLatestFeedbackDecideTheOrder) {
  const PromptTemplates t = PromptTemplates::load("ascend", std::nullopt);
  const Suite suite = Suite::embedded();
  const Task exp = resolve_task("exp", suite);

  // Before any attempt: the programming model first, the Cube note not relevant to an elementwise task.
  std::vector<ContextItem> fresh = rank_docs("ascend", t.docs, state_of(exp));
  ASSERT_EQ(fresh.size(), 7u);
  EXPECT_EQ(order(fresh).front(), "docs/kernel_structure.md");
  EXPECT_EQ(order(fresh).back(), "docs/cube_matmul.md");
  EXPECT_LT(fresh.back().rank, 0);
  EXPECT_NE(fresh.back().label.find("only for tasks about matmul"), npos) << fresh.back().label;
  EXPECT_GT(find_doc(fresh, "docs/vector_api.md").rank, find_doc(fresh, "docs/failures.md").rank)
      << "exp is one of the vector API note's tasks";
  for (const auto& c : fresh) {
    EXPECT_EQ(c.tier, Tier::Cold);
    EXPECT_EQ(c.source_kind, "doc");
    EXPECT_EQ(c.text.rfind("# ", 0), 0u) << "the front matter is not sent";
  }

  // After an unaligned copy crashed the board: the alignment and failure notes jump to the top, and say why.
  std::vector<ContextItem> after = rank_docs("ascend", t.docs, state_of(exp, kAlignmentCrash));
  EXPECT_EQ(order(after)[0], "docs/alignment.md");
  EXPECT_EQ(order(after)[1], "docs/failures.md");
  EXPECT_GT(after[1].rank, find_doc(after, "docs/kernel_structure.md").rank);
  EXPECT_NE(after[0].label.find("feedback: "), npos) << after[0].label;
  EXPECT_NE(after[0].label.find("507015"), npos) << after[0].label;

  // A slow but correct attempt raises the performance notes above the failure note.
  std::vector<ContextItem> slow = rank_docs("ascend", t.docs, state_of(exp, "correct, speedup 0.612000"));
  EXPECT_GT(find_doc(slow, "docs/pipeline.md").rank, find_doc(slow, "docs/failures.md").rank);
  EXPECT_GT(find_doc(slow, "docs/tiling.md").rank, find_doc(fresh, "docs/tiling.md").rank);
}

TEST(DocRanking, MatmulNotesOnlyForMatmulLikeTasks) {
  const Suite suite = Suite::embedded();
  const PromptTemplates ascend = PromptTemplates::load("ascend", std::nullopt);
  const PromptTemplates cuda = PromptTemplates::load("cuda", std::nullopt);
  // No L1 or L2 task is a matmul: every one leaves the Cube and tensor-core notes out.
  const Suite l1_l2 = suite.at_levels({1, 2});
  for (const Task& task : l1_l2.tasks()) {
    EXPECT_LT(find_doc(rank_docs("ascend", ascend.docs, state_of(task)), "docs/cube_matmul.md").rank, 0) << task.name;
    EXPECT_LT(find_doc(rank_docs("cuda", cuda.docs, state_of(task)), "docs/tensor_cores.md").rank, 0) << task.name;
  }
  // The L4 attention operators are two matmuls around a softmax: they get the notes.
  for (const char* name : {"mha", "gqa"}) {
    const Task& task = suite.require(name);
    EXPECT_GT(find_doc(rank_docs("ascend", ascend.docs, state_of(task)), "docs/cube_matmul.md").rank, 0) << name;
    EXPECT_GT(find_doc(rank_docs("cuda", cuda.docs, state_of(task)), "docs/tensor_cores.md").rank, 0) << name;
  }
  for (const char* name : {"quant_matmul", "weight_quant_batch_matmul", "grouped_matmul"})
    if (const Task* task = suite.find(name)) {
      EXPECT_GT(find_doc(rank_docs("ascend", ascend.docs, state_of(*task)), "docs/cube_matmul.md").rank, 0) << name;
      EXPECT_GT(find_doc(rank_docs("cuda", cuda.docs, state_of(*task)), "docs/tensor_cores.md").rank, 0) << name;
    }
  const DocState matmul{"batch_matmul\nC[b] = A[b] x B[b], a batched dense matrix multiplication in fp16", ""};
  EXPECT_GT(find_doc(rank_docs("ascend", ascend.docs, matmul), "docs/cube_matmul.md").rank, 0);
  EXPECT_GT(find_doc(rank_docs("cuda", cuda.docs, matmul), "docs/tensor_cores.md").rank, 0);
}

TEST(DocRanking, ATightBudgetAdmitsTheMostRelevantAndSaysWhatItLeftOut) {
  const PromptTemplates t = PromptTemplates::load("ascend", std::nullopt);
  const Task exp = resolve_task("exp", Suite::embedded());
  AssembleInput in;
  in.system = "system";
  in.user_template = "{{feedback}}\n{{experience}}\n{{background}}";
  Section fb;
  fb.name = "feedback";
  fb.text = kAlignmentCrash;
  in.hot = {fb};
  in.items = rank_docs("ascend", t.docs, state_of(exp, kAlignmentCrash));
  const Estimator est{llm::Provider::OpenAI, 1.0};
  AssembleOptions o;
  o.reserve = 0;
  const int64_t generation = 100;
  // Room for exactly the two most relevant documents (and 10 tokens of slack).
  const Prompt probe = assemble(in, 1 << 20, generation, o, est);
  const int64_t fixed = probe.budget.system + probe.budget.hot + generation;
  const int64_t two = est(in.items[0].text + "\n") + est(in.items[1].text + "\n");
  const Prompt p = assemble(in, fixed + two + 10, generation, o, est);

  std::vector<std::string> admitted, budget, irrelevant;
  for (const auto& s : p.sections)
    if (s.name == "doc") admitted.push_back(doc_of(s.label));
  for (const auto& s : p.left_out) {
    EXPECT_TRUE(s.text.empty());
    if (s.name == "left out: budget") budget.push_back(doc_of(s.label));
    if (s.name == "left out: not relevant") irrelevant.push_back(doc_of(s.label));
  }
  EXPECT_EQ(admitted, (std::vector<std::string>{"docs/alignment.md", "docs/failures.md"}));
  EXPECT_EQ(budget.size(), 4u);
  EXPECT_EQ(budget.front(), "docs/kernel_structure.md") << "the best of those left out comes first";
  EXPECT_EQ(irrelevant, (std::vector<std::string>{"docs/cube_matmul.md"}));
  EXPECT_EQ(p.budget.cold, two);
  EXPECT_NE(p.user.find("# DataCopy alignment, tails and DataCopyPad"), npos);
  EXPECT_EQ(p.user.find("# AscendC kernel structure"), npos);

  // With the budget to spare, the documents' own quota Q_d decides instead; experience has its own (Q_c).
  o.quota_docs = 3;
  const Prompt q = assemble(in, 1 << 20, generation, o, est);
  std::vector<std::string> quota;
  for (const auto& s : q.left_out)
    if (s.name == "left out: quota") quota.push_back(doc_of(s.label));
  EXPECT_EQ(q.budget.quota_docs, 3);
  EXPECT_EQ(quota.size(), 3u);
  EXPECT_EQ(to_json(q.budget)["Q_d"], 3);
}

TEST(DocRanking, FrontMatterIsCheckedAndOptional) {
  // No front matter: the text as it is, at the old rank of 1.
  const auto plain = rank_docs("cpu", {{"docs/notes.md", "Notes.\n"}}, {"exp", ""});
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].rank, 1.0);
  EXPECT_EQ(plain[0].text, "Notes.\n");
  EXPECT_EQ(plain[0].label, "doc cpu/docs/notes.md");

  const PackDoc d = parse_doc("x/docs/a.md", "---\nbase: 2.5\ntask: Exp, SIGMOID\nfeedback: align\n---\n\n# A\n");
  EXPECT_EQ(d.meta.base, 2.5);
  EXPECT_EQ(d.meta.task, (std::vector<std::string>{"exp", "sigmoid"}));
  EXPECT_EQ(d.body, "# A\n");
  // Terms match at the start of a word only.
  EXPECT_EQ(rank_docs("x", {{"docs/a.md", "---\nfeedback: align\n---\n# A\n"}}, {"", "unaligned copy"})[0].rank, 1.0);
  EXPECT_EQ(rank_docs("x", {{"docs/a.md", "---\nfeedback: align\n---\n# A\n"}}, {"", "bad alignment"})[0].rank, 13.0);

  auto error_of = [](const std::string& text) {
    try {
      parse_doc("ascend/docs/bad.md", text);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of("---\nbase: 1\n").find("never closed"), npos);
  EXPECT_NE(error_of("---\nwhen: always\n---\n").find("line 2 ('when: always'): unknown key 'when'"), npos);
  EXPECT_NE(error_of("---\nbase: 1\njust words\n---\n").find("line 3"), npos);
  EXPECT_NE(error_of("---\nbase: lots\n---\n").find("base must be a number from 0 to 10"), npos);
  EXPECT_NE(error_of("---\nbase: 11\n---\n").find("ascend/docs/bad.md"), npos);
}

TEST(DocRanking, AnOverrideFolderAddsAndReplacesDocumentsAndIsCheckedOnLoad) {
  test::TempDir dir;
  test::write_text(dir / "ascend" / "docs" / "board_notes.md",
                   "---\nbase: 0\nfeedback: 507015\n---\n# Notes from our board\nCore 7 is flaky.\n");
  const PromptTemplates t = PromptTemplates::load("ascend", dir.path());
  const auto ranked = rank_docs("ascend", t.docs, {"exp", "crash: 507015"});
  EXPECT_EQ(order(ranked).size(), 8u);
  EXPECT_GT(find_doc(ranked, "docs/board_notes.md").rank, find_doc(ranked, "docs/kernel_structure.md").rank);

  test::write_text(dir / "ascend" / "docs" / "broken.md", "---\npriority: high\n---\n# Broken\n");
  try {
    PromptTemplates::load("ascend", dir.path());
    FAIL() << "a malformed front matter loads";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ascend/docs/broken.md"), npos) << e.what();
  }
}

TEST(PromptPacks, AReplyInEachDevicesFormYieldsItsKernel) {
  const ExtractedKernel cuda = extract_kernel(
      "Vectorise.\n```cpp\n// thought: float4 loads\n#include \"kope_cuda.h\"\n"
      "extern \"C\" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { return 0; }\n```\n");
  EXPECT_TRUE(cuda.why_none.empty()) << cuda.why_none;
  EXPECT_EQ(cuda.thought, "float4 loads");
  const ExtractedKernel ascend = extract_kernel(
      "```cpp\n// thought: double buffering\nextern \"C\" __global__ __aicore__ void k(GM_ADDR x) {}\n"
      "extern \"C\" int kope_ascend_kernel(const kope_args* a, void* stream) { return 0; }\n```\n");
  EXPECT_NE(ascend.source.find("kope_ascend_kernel"), npos);
  const ExtractedKernel none = extract_kernel("```cpp\n__global__ void k() {}\n```\n");
  EXPECT_TRUE(none.source.empty());
  EXPECT_NE(none.why_none.find("kope_cuda_kernel"), npos) << none.why_none;
}

// What the agent sends on each device: that device's system prompt, ABI and ranked documents, as the sections
// the what-the-agent-saw view lists.
TEST(PromptPacks, TheAgentSendsTheDevicesOwnPack) {
  const Task exp = resolve_task("exp", Suite::embedded());
  struct Want {
    std::string device, system_word, abi_entry, top_doc;
  };
  for (const Want& w : {Want{"cpu", "cpu kernels", "kope_kernel(const kope_args* a)", "docs/optimisation.md"},
                        Want{"cuda", "CUDA", "kope_cuda_kernel", "docs/memory_access.md"},
                        Want{"ascend", "AscendC", "kope_ascend_kernel", "docs/alignment.md"}}) {
    SCOPED_TRACE(w.device);
    test::TempDir dir;
    test::ScriptedServer srv({test::sse_response({test::openai_stream({"no kernel this time"})})});
    Workspace ws = Workspace::open(dir / "ws");
    AgentStore store = AgentStore::open(ws.dir());
    llm::Profile p;
    p.name = "scripted";
    p.base_url = srv.url() + "/v1";
    p.model = "m";
    p.context_window = 32768;
    p.max_output_tokens = 1000;
    p.max_retries = 0;
    LlmPolicy policy(llm::Client(p, ""), PromptTemplates::load(w.device, std::nullopt), store, nullptr, {});
    PolicyState st;
    st.task = &exp;
    st.device = w.device;
    st.latest_feedback = w.device == "ascend" ? kAlignmentCrash : "correct, speedup 0.700000";
    auto out = policy.propose(st);
    ASSERT_TRUE(out.has_value());
    const Prompt* sent = policy.last_prompt();
    ASSERT_NE(sent, nullptr);
    EXPECT_NE(sent->system.find(w.system_word), npos);
    std::vector<std::string> docs;
    bool abi = false;
    for (const auto& s : sent->sections) {
      if (s.name == "abi") abi = s.label == "prompts/" + w.device + "/abi.md" && s.text.find(w.abi_entry) != npos;
      if (s.name == "incumbent")
        EXPECT_NE(s.text.find(w.device == "cpu" ? "kope_real=float" : "naive " + w.device + " kernel"), npos) << s.text;
      if (s.name == "doc") {
        EXPECT_EQ(s.label.rfind("doc " + w.device + "/", 0), 0u) << s.label;
        docs.push_back(doc_of(s.label));
      }
    }
    EXPECT_TRUE(abi);
    ASSERT_EQ(docs.size(), 4u) << "Q_d documents, the most relevant first";
    EXPECT_EQ(docs.front(), w.top_doc);
    // The request on the wire carries the same pack.
    ASSERT_EQ(srv.requests().size(), 1u);
    const std::string body = srv.requests()[0].body;
    EXPECT_NE(body.find(w.abi_entry), npos);
  }
}
