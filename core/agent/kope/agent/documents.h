// The documents of a prompt pack (resources/prompts/<device>/docs/*.md) as cold context items, ranked by how
// much each matters to the state the agent is in: the task it works on and what went wrong last time.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "kope/agent/context.h"

namespace kope::agent {

// A document's ranking metadata, from an optional front matter at its very top:
//
//   ---
//   base: 4                          importance on its own, 0..10 (default 1)
//   task: reduce, softmax, norm      the task's name or summary mentioning one makes it relevant
//   feedback: 507015, unaligned      the latest feedback (or a hint) mentioning one makes it urgent
//   only-for: matmul, gemm           not relevant at all unless the task mentions one
//   ---
//
// Terms match case-insensitively at the start of a word ("align" matches "alignment", not "unaligned").
struct DocMeta {
  double base = 1;
  std::vector<std::string> task, feedback, only_for;
};

struct PackDoc {
  std::string name;  // "docs/alignment.md"
  DocMeta meta;
  std::string body;  // the text after the front matter: what the model and the engineer read
};

// Throws kope::Error naming the document and the line for a front matter that is not closed, a line that is
// not `key: value`, an unknown key or a base that is not a number in 0..10.
PackDoc parse_doc(const std::string& name, const std::string& text);

// What the ranking looks at.
struct DocState {
  std::string task;      // the task's name and summary
  std::string feedback;  // the latest feedback and the engineer's hints
};

// One cold "doc" item per document, ordered by rank (highest first; ties keep the pack's order):
//   rank = base + 2 per task term matched (at most 3) + 10 + 2 per feedback term matched (at most 3) when any
// feedback term matched. A document whose only-for terms the task does not mention gets rank -1 (Assemble
// lists it as not relevant). The label says what matched: "doc ascend/docs/alignment.md (feedback: 507015)".
std::vector<ContextItem> rank_docs(const std::string& device, const std::vector<std::pair<std::string, std::string>>& docs,
                                   const DocState& state);

}  // namespace kope::agent
