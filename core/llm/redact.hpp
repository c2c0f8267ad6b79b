// Redaction of credentials in anything that may be shown, logged or traced.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sf::llm {

inline constexpr std::string_view kRedacted = "[REDACTED]";

// True for headers whose value is a credential: Authorization, Proxy-Authorization, x-api-key, api-key
// (case-insensitive).
bool is_secret_header(std::string_view name);
// "Name: value" -> "Name: [REDACTED]" when the header is secret; otherwise unchanged.
std::string redact_header_line(std::string_view line);
// Redacts every secret header line in a multi-line dump, and every occurrence of each non-empty secret.
std::string redact(std::string_view text, const std::vector<std::string>& secrets = {});

}  // namespace sf::llm
