// Small text helpers shared by the answer parsers (response, adoption list).
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace sf::agent::text {

inline std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

inline std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

inline bool is_blank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); });
}

// Indentation width: a space is 1 column, a tab advances to the next multiple of 4.
inline int indent_of(std::string_view s) {
  int w = 0;
  for (char c : s) {
    if (c == ' ')
      ++w;
    else if (c == '\t')
      w = (w / 4 + 1) * 4;
    else
      break;
  }
  return w;
}

// Number of leading space/tab characters.
inline std::size_t indent_chars(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}

}  // namespace sf::agent::text
