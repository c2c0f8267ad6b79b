// Okapi BM25 ranking over short documents (rule text + evidence of memory items).
//
// Why hand-written: Debian ships no small C++ BM25/full-text library that fits a Qt-free static core
// (Xapian and Lucene++ are whole search engines with on-disk databases; we rank a few hundred short
// in-memory documents per query). BM25 itself is ~40 lines, so we implement the standard formula:
//   score(D, Q) = Σ_{t ∈ Q (distinct)} idf(t) · tf(t,D)·(k1 + 1) / (tf(t,D) + k1·(1 − b + b·|D|/avgdl))
//   idf(t)      = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))      (the non-negative Lucene variant)
// with k1 = 1.2, b = 0.75. Tokens are maximal runs of ASCII letters/digits (lower-cased) or UTF-8 bytes
// ≥ 0x80; everything else separates tokens. Query terms are counted once each.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sf::memory {

std::vector<std::string> bm25_tokenize(std::string_view text);

class Bm25Index {
 public:
  static constexpr double kK1 = 1.2;
  static constexpr double kB = 0.75;

  // Adds a document; returns its index (0, 1, ...).
  std::size_t add(std::string_view text);
  std::size_t size() const { return lengths_.size(); }
  // BM25 score of every document for the query (0 for documents sharing no term with it).
  std::vector<double> score(std::string_view query) const;

 private:
  // term → postings (document index, term frequency)
  std::unordered_map<std::string, std::vector<std::pair<std::size_t, int>>> postings_;
  std::vector<int> lengths_;
  std::size_t total_length_ = 0;
};

}  // namespace sf::memory
