// "Promote to golden" as every GUI path does it (issue 20 item 2): the agent panel, the editor (Agent menu),
// a trace row (TracePane) and a run comparison cell (RunComparisonView). One action, no confirmation dialog:
// learn::promote_to_golden verifies the program (the same code as `stepforge-cli golden promote`), refuses it
// with the reason when it does not verify, and adds it with its provenance; this file only fills in the user
// and the time, creates the set's folder and words the status message. See docs/golden.md.
#pragma once

#include <QString>
#include <cstdint>
#include <optional>
#include <string>

#include "core/store/golden.hpp"

namespace sf::bench {
class Catalogue;
}
namespace sf::step {
struct TaskDoc;
}
namespace sf::verify {
class Verifier;
}

namespace sf::widgets {

// The bundled benchmark catalogue (loaded once; campaigns take their tasks from it).
const bench::Catalogue& bundledCatalogue();

// The user a promotion is recorded under ($USER, else $USERNAME).
QString goldenUserName();

// The golden set a program of campaign workspace `workspaceDir` is promoted into: the Preferences' golden set
// when one is set, else WORKSPACE/golden.json; "" when neither is known.
QString goldenFileForWorkspace(const QString& workspaceDir);

struct GoldenPromotion {
  bool ok = false;     // promoted, or already in the set
  bool added = false;  // false when the set already held the program
  QString id;          // the entry's id in the set
  QString message;  // the status text: "Promoted … to FILE as g-…", "Already golden …", "Not promoted: why"
};

struct GoldenCandidate {
  std::string impl;
  store::GoldenProvenance provenance;  // source: "trace", "comparison", "editor"; task set from the task
  std::optional<std::int64_t> cycles;  // the verdict's cost-model numbers when known
  std::optional<double> speedup;
};

// Verifies and promotes `c` for `task` into `goldenFile` (created with its folder when missing).
GoldenPromotion promoteToGoldenFile(const QString& goldenFile, const step::TaskDoc& task,
                                    const GoldenCandidate& c, verify::Verifier& verifier);
// The same for a task of the bundled catalogue named by id (trace rows and comparison cells): refused when
// the task is not there.
GoldenPromotion promoteCatalogueProgram(const QString& goldenFile, const std::string& taskId,
                                        const GoldenCandidate& c);

// The model a campaign config names (backend.model), "" when none.
std::string campaignModelOf(const nlohmann::json& config);

}  // namespace sf::widgets
