// The work EngineBridge's worker does, as plain functions (no threads, no signals), so it can be tested
// and reused: the check snapshot of the editor's document and rewriting its impl block. Loading, checking,
// stream types and simulating are core/inspect's (checked_program.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/diagnostic.hpp"
#include "widgets/engine/engine_types.hpp"

namespace sf::bench {
class Catalogue;
}

namespace sf::widgets {

// The whole CheckSnapshot for a document (names for completion even when the checks fail).
CheckSnapshot makeCheckSnapshot(std::string_view text, const std::string& path, const bench::Catalogue* cat);

// Replaces the body of the top-level `impl: |` block of `document` by `impl` (indented like the old body,
// two spaces when it was empty). Nullopt when the document has no block-scalar `impl:` key.
std::optional<std::string> replaceImplBlock(std::string_view document, std::string_view impl);

// Format (print_program) or Insert Copies (insert_copies + print_program) on the document's impl.
RewriteSnapshot rewriteDocument(RewriteKind kind, std::string_view text, const std::string& path,
                                const bench::Catalogue* cat);

}  // namespace sf::widgets
