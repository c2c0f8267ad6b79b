#include "core/step/dtype.hpp"

#include <cctype>

namespace sf::step {

Dims ScalarType::esh() const {
  Dims out(buffer.rbegin(), buffer.rend());
  if (multihot) out.push_back(lanes);
  return out;
}

ScalarType ScalarType::unbuffered() const {
  ScalarType s = *this;
  s.buffer.clear();
  return s;
}

std::string ScalarType::str() const {
  std::string elem = multihot ? "Multihot(fp32, " + lanes.str() + ")" : "fp32";
  if (!is_buffer()) return elem;
  std::string s = "Buffer(" + elem + ", [";
  for (std::size_t i = 0; i < buffer.size(); ++i) {
    if (i) s += ", ";
    s += buffer[i].str();
  }
  return s + "])";
}

std::string DType::str() const {
  if (fields.size() == 1) return fields[0].str();
  std::string s = "[";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) s += ", ";
    s += fields[i].str();
  }
  return s + "]";
}

DType concat(const DType& a, const DType& b) {
  DType r = a;
  r.fields.insert(r.fields.end(), b.fields.begin(), b.fields.end());
  return r;
}

namespace {

class TypeParser {
 public:
  TypeParser(std::string_view t, std::string& err) : t_(t), err_(err) {}

  std::optional<DType> parse() {
    skip();
    DType out;
    if (peek() == '[') {
      ++i_;
      for (;;) {
        auto s = scalar();
        if (!s) return std::nullopt;
        out.fields.push_back(*s);
        skip();
        if (peek() == ',') {
          ++i_;
          skip();
          if (peek() == ']') {
            ++i_;
            break;
          }
          continue;
        }
        if (!expect(']')) return std::nullopt;
        break;
      }
      if (out.fields.size() < 2) return fail("a tuple needs at least 2 fields");
    } else {
      auto s = scalar();
      if (!s) return std::nullopt;
      out.fields.push_back(*s);
    }
    skip();
    if (i_ != t_.size()) return fail("unexpected text '" + std::string(t_.substr(i_)) + "'");
    return out;
  }

 private:
  char peek() const { return i_ < t_.size() ? t_[i_] : '\0'; }
  void skip() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }
  std::nullopt_t fail(std::string m) {
    if (err_.empty()) err_ = std::move(m);
    return std::nullopt;
  }
  bool expect(char c) {
    skip();
    if (peek() != c) {
      fail(std::string("expected '") + c + "'" + (i_ < t_.size() ? std::string(" at '") + t_[i_] + "'" : ""));
      return false;
    }
    ++i_;
    return true;
  }
  std::string word() {
    skip();
    std::size_t s = i_;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_')) ++i_;
    return std::string(t_.substr(s, i_ - s));
  }
  std::optional<Dim> dim() {
    skip();
    std::size_t s = i_;
    int depth = 0;
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (c == '(') ++depth;
      if ((c == ',' || c == ']' || c == ')') && depth == 0) break;
      if (c == ')') --depth;
      ++i_;
    }
    std::string e;
    auto d = parse_dim(t_.substr(s, i_ - s), e);
    if (!d) return fail("bad dim '" + std::string(t_.substr(s, i_ - s)) + "': " + e);
    return d;
  }
  std::optional<ScalarType> elem() {
    std::string w = word();
    if (w == "fp32") return ScalarType{};
    if (w == "Multihot") {
      if (!expect('(')) return std::nullopt;
      if (word() != "fp32") return fail("Multihot elements must be fp32: write Multihot(fp32, L)");
      if (!expect(',')) return std::nullopt;
      auto d = dim();
      if (!d) return std::nullopt;
      if (!expect(')')) return std::nullopt;
      ScalarType s;
      s.multihot = true;
      s.lanes = *d;
      return s;
    }
    if (w.empty()) return fail("expected a type");
    return fail("unknown type '" + w + "' (types: fp32, Multihot(fp32, L), Buffer(T, [dims]), [T1, T2, ...])");
  }
  std::optional<ScalarType> scalar() {
    skip();
    std::size_t save = i_;
    std::string w = word();
    if (w != "Buffer") {
      i_ = save;
      return elem();
    }
    if (!expect('(')) return std::nullopt;
    auto e = elem();
    if (!e) return std::nullopt;
    if (!expect(',')) return std::nullopt;
    if (!expect('[')) return std::nullopt;
    ScalarType s = *e;
    for (;;) {
      auto d = dim();
      if (!d) return std::nullopt;
      s.buffer.push_back(*d);
      skip();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      if (!expect(']')) return std::nullopt;
      break;
    }
    if (!expect(')')) return std::nullopt;
    return s;
  }

  std::string_view t_;
  std::string& err_;
  std::size_t i_ = 0;
};

}  // namespace

std::optional<DType> parse_dtype(std::string_view text, std::string& error) {
  error.clear();
  if (text.size() > 4096) {
    error = "type text too long";
    return std::nullopt;
  }
  return TypeParser(text, error).parse();
}

}  // namespace sf::step
