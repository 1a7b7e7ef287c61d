#include "kope/agent/llm_policy.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "kope/agent/documents.h"
#include "kope/agent/memory_experience.h"
#include "kope/llm/config.h"

using namespace kope::loop;

namespace kope::agent {

using nlohmann::json;

namespace {

std::string shape_text(const std::vector<int64_t>& s) {
  std::string o = "[";
  for (std::size_t i = 0; i < s.size(); ++i) o += (i ? ", " : "") + std::to_string(s[i]);
  return o + "]";
}

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

std::string spec_text(const Task& t) {
  std::string s = t.summary + "\n\n";
  auto tensors = [&](const char* what, const std::vector<TensorSpec>& v) {
    s += std::string(what) + ":\n";
    for (std::size_t i = 0; i < v.size(); ++i) {
      s += "- [" + std::to_string(i) + "] " + v[i].name + ": " + std::string(dtype_name(v[i].dtype)) + " shape [";
      for (std::size_t k = 0; k < v[i].shape.size(); ++k) s += (k ? ", " : "") + v[i].shape[k];
      s += "]";
      if (!v[i].count.empty()) s += " x" + v[i].count + " tensors";
      s += "\n";
    }
  };
  tensors("Inputs", t.inputs);
  tensors("Outputs", t.outputs);
  if (!t.attrs.empty()) {
    s += "Attributes (defaults):";
    for (const auto& [k, v] : t.attrs) s += " " + k + "=" + num(v);
    s += "\n";
  }
  s += "Cases (resolved shapes):\n";
  for (const Case& c : t.cases) {
    ConcreteCase cc = resolve_case(t, c);
    s += "- " + cc.name + ":";
    for (const auto& x : cc.inputs) s += " " + x.name + shape_text(x.shape);
    s += " ->";
    for (const auto& x : cc.outputs) s += " " + x.name + shape_text(x.shape);
    for (const auto& [k, v] : cc.attrs) s += " " + k + "=" + num(v);
    s += "\n";
  }
  return s;
}

}  // namespace

std::vector<Section> hot_sections(const PolicyState& st, const PromptTemplates& t, double min_gain) {
  const Task& task = *st.task;
  std::vector<Section> out;
  auto add = [&](const std::string& name, const std::string& kind, const std::string& label, std::string text) {
    Section s;
    s.name = name;
    s.tier = Tier::Hot;
    s.source_kind = kind;
    s.label = label;
    s.text = std::move(text);
    out.push_back(std::move(s));
  };
  add("task", "task", task.name, task.name);
  add("spec", "task", "spec of " + task.name, spec_text(task));
  std::string ref = task.reference;
  if (!ref.empty() && ref.back() != '\n') ref += "\n";
  add("reference", "task", "reference of " + task.name, ref);
  add("abi", "template", "prompts/" + t.device + "/abi.md", t.abi);
  add("incumbent", "incumbent", "incumbent of " + task.name,
      st.incumbent_source.empty()
          ? (t.device == "cpu" ? "The baseline (the reference built with kope_real=float) is the incumbent (speedup 1.00x).\n"
                               : "The baseline (the task's naive " + t.device + " kernel) is the incumbent (speedup 1.00x).\n")
          : "Speedup " + num(st.incumbent_speedup) + "x over the baseline:\n```cpp\n" + st.incumbent_source +
                (st.incumbent_source.back() == '\n' ? "" : "\n") + "```\n");
  add("feedback", "evaluation", "latest feedback",
      st.latest_feedback.empty() ? "(no attempt yet in this session)\n" : st.latest_feedback + "\n");
  add("target", "task", "target",
      "A correct kernel with speedup above " + num(st.incumbent_speedup * min_gain) +
          "x (the incumbent's " + num(st.incumbent_speedup) + "x plus " + num((min_gain - 1) * 100) +
          "%) becomes the new incumbent. Propose one kernel.\n");
  // The engineer's hints (RunControl::add_hint, taken once by the loop before this attempt), hot: they always
  // go into this prompt, and into its transcript as a section of their own.
  if (!st.hints.empty()) {
    std::string text = "## Engineer's hints\n\nThe engineer watching this run asks:\n";
    for (const std::string& h : st.hints) text += "- " + h + "\n";
    add("hints", "engineer", "engineer's hints", text);
  }
  return out;
}

namespace {

// The user template with a {{hints}} slot when there are hints (appended where a template has none), and
// without one when there are none.
std::string with_hints_slot(std::string tmpl, bool has_hints) {
  const std::string slot = "{{hints}}";
  const bool present = tmpl.find(slot) != std::string::npos;
  if (has_hints && !present) tmpl += (tmpl.empty() || tmpl.back() == '\n' ? "\n" : "\n\n") + slot;
  if (!has_hints)
    for (std::size_t at; (at = tmpl.find(slot)) != std::string::npos;) tmpl.erase(at, slot.size());
  return tmpl;
}

// Retrieve: the prompt's pieces for this state (the hot context, the memory's items, the device's documents).
AssembleInput retrieve_input(const PolicyState& state, const PromptTemplates& templates, ExperienceSource* source,
                             const AssembleOptions& context) {
  AssembleInput in;
  in.system = render(templates.system, {{"device", templates.device}});
  in.user_template = with_hints_slot(templates.user, !state.hints.empty());
  in.hot = hot_sections(state, templates, 1.02);
  if (!source && context.arm != MemoryArm::Off) {
    in.items = context_items(state.experience, state.task->name, state.device);  // the loop's Retrieve(s, M)
  } else if (source && context.arm != MemoryArm::Off) {
    ExperienceQuery q;
    q.task = state.task;
    q.device = state.device;
    q.ranked = context.arm == MemoryArm::Active;
    q.incumbent_speedup = state.incumbent_speedup;
    q.incumbent_source = state.incumbent_source;
    q.latest_feedback = state.latest_feedback;
    in.items = source->retrieve(q);
  }
  // The device's documents, ranked by this state: the task, and what the last attempt's feedback and the
  // engineer's hints talk about.
  DocState ds;
  ds.task = state.task->name + "\n" + state.task->summary;
  ds.feedback = state.latest_feedback;
  for (const std::string& h : state.hints) ds.feedback += "\n" + h;
  for (ContextItem& d : rank_docs(templates.device, templates.docs, ds)) in.items.push_back(std::move(d));
  return in;
}

// What the store keeps about an attempt before its exchange.
AttemptHeader attempt_header(const PolicyState& state, const llm::Profile& prof, int iteration, MemoryArm arm) {
  AttemptHeader h;
  h.run_id = state.run_id;
  h.task = state.task->name;
  h.device = state.device;
  h.iteration = iteration;
  h.profile = prof.name;
  h.provider = std::string(llm::provider_name(prof.provider));
  h.model = prof.model;
  h.arm = std::string(arm_name(arm));
  h.profile_json = llm::to_json(prof);
  return h;
}

// The reply's side of an exchange record.
void record_reply(ExchangeRecord& x, const llm::ChatReply& reply) {
  x.answer = reply.answer;
  x.reasoning = reply.reasoning;
  x.finish_reason = reply.finish_reason;
  x.prompt_tokens = reply.usage.prompt_tokens;
  x.completion_tokens = reply.usage.completion_tokens;
  x.usage_from_server = reply.usage.from_server;
  x.latency_s = reply.latency_s;
  x.retries = reply.retries;
  x.retry_log = reply.retry_log;
  x.cost = reply.cost;
}

// What a live view is told of one attempt (AttemptHooks), with the running token tally of the streamed text
// and the time since the request went out. Does nothing for hooks left empty.
class LiveFeed {
 public:
  LiveFeed(const AttemptHooks& hooks, LiveAttempt attempt, const llm::Profile& profile, int64_t prompt_estimate)
      : hooks_(hooks), attempt_(std::move(attempt)), profile_(profile), prompt_estimate_(prompt_estimate) {
    attempt_.price_in_per_mtok = profile.price_in_per_mtok;
    attempt_.price_out_per_mtok = profile.price_out_per_mtok;
    attempt_.prompt_estimate = prompt_estimate;
  }

  void prompt(const Prompt& p) const {
    if (hooks_.prompt) hooks_.prompt(attempt_, p);
  }

  // The client's deltas as LiveDeltas: a new try starts the text and the tally again.
  llm::Client::DeltaFn delta_fn() {
    start_ = Clock::now();
    if (!hooks_.delta) return {};
    return [this](const llm::Delta& d) {
      const bool restart = d.try_index != try_;
      if (restart) {
        try_ = d.try_index;
        out_ = {};
      }
      out_.add(d.answer);
      out_.add(d.reasoning);
      hooks_.delta(attempt_, LiveDelta{d.answer, d.reasoning, restart, usage(d.usage, false)});
    };
  }

  void end(const std::string& status, const std::string& error, const llm::ChatReply* reply) const {
    if (!hooks_.end) return;
    LiveEnd e{status, error, reply ? usage(reply->usage, true) : usage(llm::Usage{}, false)};
    if (reply) e.usage.elapsed_s = reply->latency_s;
    hooks_.end(attempt_, e);
  }

 private:
  using Clock = std::chrono::steady_clock;

  // During the stream: the server's prompt tokens once it has sent them (Anthropic does at the start), else the
  // prompt's estimate; the streamed text's estimate for the completion, which servers report only at the end.
  // At the end (`final`): the reply's usage as the client settled it.
  LiveUsage usage(const llm::Usage& server, bool final) const {
    llm::Usage u = server;
    if (!final) {
      if (!u.from_server || u.prompt_tokens == 0) u.prompt_tokens = prompt_estimate_;
      u.completion_tokens = std::max(u.completion_tokens, out_.tokens(profile_.provider));
      u.from_server = false;
    }
    LiveUsage l{u.prompt_tokens, u.completion_tokens, u.from_server, llm::cost_of(profile_, u), 0};
    if (start_) l.elapsed_s = std::chrono::duration<double>(Clock::now() - *start_).count();
    return l;
  }

  const AttemptHooks& hooks_;
  LiveAttempt attempt_;
  const llm::Profile& profile_;
  int64_t prompt_estimate_;
  std::optional<Clock::time_point> start_;
  llm::TokenTally out_;
  int try_ = 0;
};

}  // namespace

LlmPolicy::LlmPolicy(llm::Client client, PromptTemplates templates, AgentStore& store, ExperienceSource* source,
                     LlmPolicyOptions options)
    : client_(std::move(client)), templates_(std::move(templates)), store_(store), source_(source),
      options_(std::move(options)) {}

std::string LlmPolicy::calibration_key() const {
  const auto& p = client_.profile();
  return p.name + "|" + std::string(llm::provider_name(p.provider)) + "|" + p.model;
}

std::optional<Proposal> LlmPolicy::propose(const PolicyState& state) {
  if (state.task->name != task_) {
    task_ = state.task->name;
    iteration_ = 0;
  }
  ++iteration_;
  const llm::Profile& prof = client_.profile();

  AssembleInput in = retrieve_input(state, templates_, source_, options_.context);
  // Assemble
  Estimator est{prof.provider, store_.calibration(calibration_key())};
  Prompt prompt = assemble(in, prof.context_window, prof.max_output_tokens, options_.context, est);
  last_prompt_ = prompt;

  const int64_t attempt =
      store_.begin_attempt(attempt_header(state, prof, iteration_, options_.context.arm), prompt);

  Proposal out;
  out.name = "llm:" + prof.model + ":" + state.task->name + "#" + std::to_string(iteration_);
  out.transcript_id = attempt;

  // Policy
  llm::ChatRequest req{prompt.system, {{"user", prompt.user}}};
  ExchangeRecord x;
  x.request_json = llm::request_body(prof, req, false).dump();
  x.estimated_prompt_tokens = est(prompt.system) + est(prompt.user);
  LiveFeed live(options_.hooks, {state.run_id, state.task->name, iteration_, attempt, prof.name, prof.model}, prof,
                x.estimated_prompt_tokens);
  live.prompt(prompt);
  llm::ChatReply reply;
  try {
    reply = client_.chat(req, options_.cancel, live.delta_fn());
  } catch (const llm::LlmError& e) {
    x.error = e.what();
    store_.record_exchange(attempt, x);
    const bool cancelled = e.kind() == llm::ErrorKind::Cancelled;
    store_.set_status(attempt, cancelled ? "cancelled" : "error", e.what());
    live.end(cancelled ? "cancelled" : "error", e.what(), nullptr);
    if (!cancelled) throw;
    out.cancelled = true;
    return out;
  }
  record_reply(x, reply);
  store_.record_exchange(attempt, x);
  if (reply.usage.from_server) store_.add_calibration_sample(calibration_key(), prompt.raw_estimate, reply.usage.prompt_tokens);
  out.tokens = reply.usage.prompt_tokens + reply.usage.completion_tokens;
  tokens_ += out.tokens;

  ExtractedKernel k = extract_kernel(reply.answer);
  if (k.source.empty()) {
    if (reply.finish_reason == "length" || reply.finish_reason == "max_tokens")
      k.why_none += " (the reply stopped at the max_output_tokens limit)";
    out.no_candidate = k.why_none;
    store_.set_status(attempt, "no_candidate", k.why_none);
    live.end("no_candidate", k.why_none, &reply);
    return out;
  }
  out.source = k.source;
  out.thought = k.thought;
  store_.set_status(attempt, "candidate");
  live.end("candidate", "", &reply);
  return out;
}

void LlmPolicy::recorded(const Proposal& p, int64_t evaluation_id, const std::string& status) {
  if (p.transcript_id == 0) return;
  if (evaluation_id != 0) store_.link_evaluation(p.transcript_id, evaluation_id, status);
  else if (status == "skipped") store_.set_status(p.transcript_id, "skipped", "the memory says this kernel already failed here");
}

}  // namespace kope::agent
