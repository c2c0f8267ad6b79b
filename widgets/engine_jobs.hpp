// The work EngineBridge's worker does, as plain functions (no threads, no signals), so it can be tested
// and reused: loading the editor's document, checking it, describing stream types, rewriting the impl block.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/diagnostic.hpp"
#include "widgets/engine_types.hpp"

namespace sf::bench {
class Catalogue;
}

namespace sf::widgets {

// Loads `text` (a task document with `impl:`, or a solution file `task:` + `impl:` resolved against `cat`) and
// runs the static checks of the whole document (verify::check_document, as `stepforge-cli check`: fns and
// reference under every size binding, then the impl). Returns null (with D-* diagnostics) when there is no program to check.
std::shared_ptr<CheckedProgram> loadAndCheck(std::string_view text, const std::string& path,
                                             const bench::Catalogue* cat, Diagnostics& diags);

// "[N] of Buffer(fp32, [K])": the stream's dims (innermost-first) and element type.
QString describeStreamType(const step::StreamType& t);

// One annotation per stream (or stream list) defined by a type-checked program.
QVector<StreamAnnotation> streamAnnotations(const CheckedProgram& p);

// The whole CheckSnapshot for a document (names for completion even when the checks fail).
CheckSnapshot makeCheckSnapshot(std::string_view text, const std::string& path, const bench::Catalogue* cat);

// Replaces the body of the top-level `impl: |` block of `document` by `impl` (indented like the old body,
// two spaces when it was empty). Nullopt when the document has no block-scalar `impl:` key.
std::optional<std::string> replaceImplBlock(std::string_view document, std::string_view impl);

// Format (print_program) or Insert Copies (insert_copies + print_program) on the document's impl.
RewriteSnapshot rewriteDocument(RewriteKind kind, std::string_view text, const std::string& path,
                                const bench::Catalogue* cat);

}  // namespace sf::widgets
