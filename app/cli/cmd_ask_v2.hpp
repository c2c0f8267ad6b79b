// `ask --optimise` on a STeP-25 (step-v2) task (docs/llm.md, "STeP-25 optimisation rounds"): one optimisation
// round of the campaign engine's shape (synth::opt2::round_request) against any chat backend, judged before and
// after with the STeP-25 cost model and the simulator (synth::opt2::judge). Also the printing helpers `ask`
// shares between its v1 and v2 rounds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/llm/backend_config.hpp"
#include "core/llm/chat_backend.hpp"
#include "core/step/task.hpp"

namespace sf::cli {

struct AskV2Options {
  std::string from;     // the file the program came from (named in the output)
  std::string program;  // the starting program (a correct one)
  std::string chip;     // a chip name or JSON file; "" or "default": the task's chip
  double temperature = 0.0;
  int max_tokens = 4096;
  std::optional<std::uint64_t> seed;
  bool json = false, stream = false;
};

// Judges the program, sends the round, reads and judges the answer, prints the verdict with the cycles before
// and after. Exit code: 0 correct+faster; 1 any other verdict or no program in the answer (cut at the token
// limit, none found, a failed call that is not the endpoint's fault); 2 a usage error (the starting program is
// not correct and feasible, no operator card, unknown chip); 3 the endpoint failed (llm::diagnose_failure).
int cmd_ask_v2(const AskV2Options& o, const llm::BackendConfig& cfg, llm::ChatBackend& backend,
               const step::TaskDoc& task, const std::string& resources);

// The first `n` lines of `s`, each indented by four spaces ("    ..." when there are more).
std::string indented_head(const std::string& s, int n);
// What `ask --stream` prints as the answer arrives: the text (and search progress lines), then the end line;
// with `json`, one {"type":"delta",...} line per piece.
llm::StreamCallback stream_printer(bool json);

}  // namespace sf::cli
