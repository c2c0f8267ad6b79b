// The type checker's one-pass typing of a program under every size binding (TypecheckOptions::one_pass) gives
// exactly the diagnostics and typed program of one run per binding: for every bundled reference solution and
// for variants of it with other integers and size symbols (many of them wrong under some binding only).
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "core/bench/catalogue.hpp"
#include "core/step/names.hpp"
#include "core/step/parser.hpp"
#include "core/step/printer.hpp"
#include "core/step/printer_detail.hpp"
#include "core/step/task.hpp"
#include "core/step/typecheck.hpp"
#include "core/verify/program_file.hpp"

namespace {

using namespace sf;

std::string diag_text(const Diagnostics& ds) {
  std::string s;
  for (const auto& d : ds)
    s += d.code + " " + std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + " " + d.message + "\n";
  return s;
}

std::string dims_text(const std::vector<step::StreamType>& ts) {
  std::string s;
  for (const auto& t : ts) s += step::describe("", t) + ";";
  return s;
}

std::string typed_text(const std::optional<step::TypedProgram>& tp) {
  if (!tp) return "none";
  std::string s;
  for (const auto& ts : tp->stmts)
    s += std::string(step::prim_name(ts.call.prim)) + " N=" + std::to_string(ts.call.N) + " in " +
         dims_text(ts.inputs) + " out " + dims_text(ts.outs) + "\n";
  return s + "returns " + dims_text(tp->returns);
}

// The solution's impl with one integer literal or one size symbol replaced, for every such token and value.
std::vector<std::string> variants(const std::string& impl, const step::TaskDoc& task) {
  std::set<std::string> out;
  static const std::regex integer(R"(\b[0-9]+\b)");
  for (auto it = std::sregex_iterator(impl.begin(), impl.end(), integer); it != std::sregex_iterator(); ++it)
    for (const char* v : {"1", "3", "16"})
      out.insert(impl.substr(0, it->position()) + v + impl.substr(it->position() + it->length()));
  std::vector<std::string> symbols;
  for (const auto& [name, value] : task.sizes) symbols.push_back(name);
  for (const auto& from : symbols) {
    const std::regex word("\\b" + from + "\\b");
    for (auto it = std::sregex_iterator(impl.begin(), impl.end(), word); it != std::sregex_iterator(); ++it)
      for (const auto& to : symbols)
        if (to != from) out.insert(impl.substr(0, it->position()) + to + impl.substr(it->position() + it->length()));
  }
  return {out.begin(), out.end()};
}

TEST(TypecheckEquivalence, OnePassMatchesOneRunPerBinding) {
  Diagnostics ignored;
  auto cat = bench::Catalogue::load(bench::resource_dir(), ignored);
  int programs = 0, failing = 0, one_pass_candidates = 0;
  for (const auto& task : cat.tasks()) {
    const std::string path = bench::resource_dir() + "/solutions/" + task.id + ".yaml";
    Diagnostics ds;
    auto pf = verify::load_program_file(path, &cat, ds);
    if (!pf) continue;
    ASSERT_GE(pf->task.static_bindings().size(), 2u) << task.id;
    auto texts = variants(pf->impl, pf->task);
    texts.insert(texts.begin(), pf->impl);
    // The task as bundled, and one whose general binding has every size one larger: the lane count then differs
    // between bindings (Partition's N and Merge's lanes bind per binding) and divisibility breaks under it alone.
    step::TaskDoc bumped = pf->task;
    bumped.verify.general_sizes = pf->task.sizes;
    for (auto& [name, value] : *bumped.verify.general_sizes) ++value;
    for (const step::TaskDoc* doc : {&pf->task, &bumped})
    for (const auto& text : texts) {
      Diagnostics pd;
      auto prog = step::parse_impl(text, {}, pd);
      if (!prog || !step::check_names(*prog, step::task_names(*doc), pd, &doc->sizes)) continue;
      step::TypecheckOptions exact;
      exact.one_pass = false;
      Diagnostics d1, d2;
      auto t1 = step::typecheck(*prog, *doc, d1, {});
      auto t2 = step::typecheck(*prog, *doc, d2, exact);
      ASSERT_EQ(diag_text(d1), diag_text(d2)) << task.id << "\n" << text;
      ASSERT_EQ(typed_text(t1), typed_text(t2)) << task.id << "\n" << text;
      ++programs;
      if (!t2) ++failing;
      if (text.find("Partition") == std::string::npos && text.find("Merge") == std::string::npos)
        ++one_pass_candidates;
    }
  }
  // The corpus is wide enough to mean something: many programs, errors among them, most take the one pass.
  EXPECT_GE(programs, 500);
  EXPECT_GE(failing, 100);
  EXPECT_GE(one_pass_candidates, programs / 2);
}

// canonical_text renames while printing (PrintStyle::rename); the text is the one of printing the renamed copy
// of the program, for every reference solution and its variants (with and without a size binding), and for
// programs with comprehensions (renamed fn and stream variables, shadowing).
TEST(CanonicalEquivalence, RenameWhilePrintingMatchesRenamedCopy) {
  Diagnostics ignored;
  auto cat = bench::Catalogue::load(bench::resource_dir(), ignored);
  std::vector<std::string> texts = {
      "fs = [f, g]\nys = [step.Map(fn=h).apply(s) for h, s in zip(fs, [a, b])]\nreturn ys[0], ys[1]",
      "ys = [step.Map(fn=f).apply(x) for x in [x, b]]\nzs = [step.Accum(fn=g, b=1).apply(y) for y in ys]\n"
      "return zs[0]",
      "y = step.Partition(N=E_value).apply((x, sel))\nreturn y"};
  for (const auto& task : cat.tasks()) {
    const std::string path = bench::resource_dir() + "/solutions/" + task.id + ".yaml";
    Diagnostics ds;
    auto pf = verify::load_program_file(path, &cat, ds);
    if (!pf) continue;
    texts.push_back(pf->impl);
    for (auto& v : variants(pf->impl, pf->task)) texts.push_back(std::move(v));
  }
  const step::SizeBinding sizes{{"E", 4}, {"D", 16}};
  int programs = 0, comprehensions = 0;
  for (const auto& text : texts) {
    Diagnostics pd;
    auto prog = step::parse_impl(text, {}, pd);
    if (!prog) continue;
    for (const step::SizeBinding* b : {static_cast<const step::SizeBinding*>(nullptr), &sizes}) {
      const std::string copied =
          step::detail::print_with(step::detail::canonical_program(*prog), step::detail::PrintStyle{true, b});
      ASSERT_EQ(step::canonical_text(*prog, b), copied) << text;
    }
    ++programs;
    if (text.find(" for ") != std::string::npos) ++comprehensions;
  }
  EXPECT_GE(programs, 500);
  EXPECT_GE(comprehensions, 2);
}

}  // namespace
