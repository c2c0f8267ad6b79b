#include "core/llm/redact.hpp"

#include <algorithm>
#include <cctype>

namespace sf::llm {

namespace {
std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}
}  // namespace

bool is_secret_header(std::string_view name) {
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.remove_suffix(1);
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front()))) name.remove_prefix(1);
  std::string n = lower(name);
  return n == "authorization" || n == "proxy-authorization" || n == "x-api-key" || n == "api-key";
}

std::string redact_header_line(std::string_view line) {
  auto colon = line.find(':');
  if (colon == std::string_view::npos || !is_secret_header(line.substr(0, colon))) return std::string(line);
  return std::string(line.substr(0, colon)) + ": " + std::string(kRedacted);
}

std::string redact(std::string_view text, const std::vector<std::string>& secrets) {
  std::string out;
  out.reserve(text.size());
  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    auto line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    bool cr = !line.empty() && line.back() == '\r';
    if (cr) line.remove_suffix(1);
    out += redact_header_line(line);
    if (cr) out += '\r';
    if (nl == std::string_view::npos) break;
    out += '\n';
    pos = nl + 1;
  }
  for (const auto& s : secrets) {
    if (s.empty()) continue;
    std::size_t at = 0;
    while ((at = out.find(s, at)) != std::string::npos) {
      out.replace(at, s.size(), kRedacted);
      at += kRedacted.size();
    }
  }
  return out;
}

}  // namespace sf::llm
