#include "core/memory/bm25_index.hpp"

#include <cmath>
#include <map>
#include <set>

namespace sf::memory {

std::vector<std::string> bm25_tokenize(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : text) {
    const auto u = static_cast<unsigned char>(ch);
    if ((u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || u >= 0x80) {
      cur.push_back(ch);
    } else if (u >= 'A' && u <= 'Z') {
      cur.push_back(static_cast<char>(u - 'A' + 'a'));
    } else if (!cur.empty()) {
      out.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

std::size_t Bm25Index::add(std::string_view text) {
  const std::size_t doc = lengths_.size();
  const auto tokens = bm25_tokenize(text);
  std::map<std::string, int> tf;
  for (const auto& t : tokens) ++tf[t];
  for (const auto& [term, n] : tf) postings_[term].emplace_back(doc, n);
  lengths_.push_back(static_cast<int>(tokens.size()));
  total_length_ += tokens.size();
  return doc;
}

std::vector<double> Bm25Index::score(std::string_view query) const {
  std::vector<double> scores(lengths_.size(), 0.0);
  if (lengths_.empty()) return scores;
  const double n_docs = static_cast<double>(lengths_.size());
  const double avgdl = std::max(1.0, static_cast<double>(total_length_) / n_docs);
  const auto terms = bm25_tokenize(query);
  const std::set<std::string> distinct(terms.begin(), terms.end());
  for (const auto& term : distinct) {
    auto it = postings_.find(term);
    if (it == postings_.end()) continue;
    const double df = static_cast<double>(it->second.size());
    const double idf = std::log(1.0 + (n_docs - df + 0.5) / (df + 0.5));
    for (const auto& [doc, tf] : it->second) {
      const double f = tf;
      const double norm = 1.0 - kB + kB * static_cast<double>(lengths_[doc]) / avgdl;
      scores[doc] += idf * f * (kK1 + 1.0) / (f + kK1 * norm);
    }
  }
  return scores;
}

}  // namespace sf::memory
