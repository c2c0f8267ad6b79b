// JSON forms of adoption records (logged as events and kept in audit.json).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>

#include "core/common/diagnostic.hpp"
#include "core/memory/memory_item.hpp"

namespace sf::memory {

inline constexpr const char* kMemoryFormat = "stepforge-memory";
inline constexpr int kMemoryVersion = 1;

// One memory item as stored in memory.json (the "items" entries of MemoryStore::to_json).
nlohmann::json item_to_json(const MemoryItem& it);

nlohmann::json adoption_record_to_json(const AdoptionRecord& r);
// Strict: wrong types or unknown states/grades give M-IMPORT naming the field; returns nullopt on success.
std::optional<Diagnostic> adoption_record_from_json(const nlohmann::json& j, AdoptionRecord& out);

}  // namespace sf::memory
