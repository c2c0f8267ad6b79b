#include "core/memory/memory_item.hpp"

namespace sf::memory {

std::string_view state_name(ItemState s) {
  switch (s) {
    case ItemState::Cold:
      return "cold";
    case ItemState::Validated:
      return "validated";
    case ItemState::Hot:
      return "hot";
  }
  return "cold";
}

std::optional<ItemState> parse_state(std::string_view name) {
  for (ItemState s : {ItemState::Cold, ItemState::Validated, ItemState::Hot}) {
    if (state_name(s) == name) return s;
  }
  return std::nullopt;
}

int estimate_tokens(std::string_view text) {
  return static_cast<int>((text.size() + 3) / 4);
}

std::string_view adoption_state_name(AdoptionState s) {
  return s == AdoptionState::Adopted ? "adopted" : "not-adopted";
}

std::optional<AdoptionState> parse_adoption_state(std::string_view name) {
  if (name == "adopted") return AdoptionState::Adopted;
  if (name == "not-adopted") return AdoptionState::NotAdopted;
  return std::nullopt;
}

std::string_view audit_grade_name(AuditGrade g) {
  switch (g) {
    case AuditGrade::Full:
      return "full";
    case AuditGrade::Partial:
      return "partial";
    case AuditGrade::Unrelated:
      return "unrelated";
  }
  return "full";
}

std::optional<AuditGrade> parse_audit_grade(std::string_view name) {
  for (AuditGrade g : {AuditGrade::Full, AuditGrade::Partial, AuditGrade::Unrelated}) {
    if (audit_grade_name(g) == name) return g;
  }
  return std::nullopt;
}

}  // namespace sf::memory
