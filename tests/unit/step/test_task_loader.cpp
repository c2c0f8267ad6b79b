// Task documents: good documents, every D-* path with exact locations, block scalar line starts.
#include <gtest/gtest.h>

#include <string>

#include "core/step/task.hpp"

using namespace sf;
using namespace sf::step;

namespace {

const std::string kGood = R"YAML(dialect: step-v1
id: toy/scale
group: toy
title: Scale rows
description: |
  Toy task.
sizes: {M: 5, N: 7, D: 16}
inputs:
  - {name: E0, dtype: fp32, dims: [M, N], data_gen: rand}
  - {name: E1, dtype: "Multihot(fp32, D)", dims: [N], data_gen: multihot, min: 1, max: 2}
parameters:
  - {name: W, dims: [D, M], data_gen: randn, scale: 0.5}
fns:
  - func_name: fn_acc
    name: Acc
    input_dtype: fp32
    output_dtype: fp32
    init: [0]
    body: |
      s = state0 + in0
      return s
  - func_name: fn_two
    name: Two
    input_dtype: [fp32, "Buffer(fp32, [D])"]
    output_dtype: "Buffer(fp32, [D])"
    body: return in1 * in0
outputs:
  - {name: S0, dtype: fp32, dims: [N]}
reference: |
  return sum(E0, axis=1)
verify: {seeds: [1, 2, 3], atol: 0.001, alt_sizes: {M: 4}}
meta:
  origin: X
  copies: 0
  paper_affine: 0
  attr: C
  needs: {Accum: 1}
  len: 3
impl: |
  E2 = step.Accum(fn=fn_acc, b=1).apply(E0)
  return E2
)YAML";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  return text;
}

struct Loaded {
  std::optional<TaskDoc> doc;
  Diagnostics diags;
};

Loaded load(const std::string& text) {
  Loaded l;
  l.doc = load_task_text(text, "t.yaml", l.diags);
  return l;
}

// The document fails with `code` first (in file order) at line:col.
void expect_first(const std::string& text, const std::string& code, int line, int col,
                  const std::string& fragment = "") {
  Loaded l = load(text);
  EXPECT_FALSE(l.doc.has_value());
  ASSERT_FALSE(l.diags.empty());
  sort_and_cap(l.diags);
  const Diagnostic& d = l.diags.front();
  EXPECT_EQ(d.code, code) << d.message;
  EXPECT_EQ(d.loc.line, line) << d.code << " " << d.message;
  if (col >= 0) {
    EXPECT_EQ(d.loc.column, col) << d.code << " " << d.message;
  }
  if (!fragment.empty()) {
    EXPECT_NE(d.message.find(fragment), std::string::npos) << d.message;
  }
  EXPECT_EQ(d.stage(), stage_of(code));
}

}  // namespace

TEST(TaskLoader, LoadsAGoodDocument) {
  Loaded l = load(kGood);
  ASSERT_TRUE(l.doc) << (l.diags.empty() ? "" : l.diags[0].message);
  EXPECT_TRUE(l.diags.empty());
  const TaskDoc& t = *l.doc;
  EXPECT_EQ(t.path, "t.yaml");
  EXPECT_EQ(t.dialect, "step-v1");
  EXPECT_EQ(t.id, "toy/scale");
  EXPECT_EQ(t.group, "toy");
  EXPECT_EQ(t.title, "Scale rows");
  EXPECT_EQ(t.description, "Toy task.\n");
  EXPECT_EQ(t.sizes, (SizeBinding{{"M", 5}, {"N", 7}, {"D", 16}}));
  ASSERT_EQ(t.inputs.size(), 2u);
  EXPECT_EQ(t.inputs[0].name, "E0");
  EXPECT_EQ(dims_str(t.inputs[0].dims), "[M, N]");
  EXPECT_EQ(t.inputs[0].gen, DataGen::Rand);
  EXPECT_EQ(t.inputs[0].loc, (Location{9, 12}));
  EXPECT_EQ(t.inputs[1].dtype.str(), "Multihot(fp32, D)");
  EXPECT_EQ(t.inputs[1].gen, DataGen::Multihot);
  EXPECT_EQ(t.inputs[1].mh_min, 1);
  EXPECT_EQ(t.inputs[1].mh_max, 2);
  ASSERT_EQ(t.parameters.size(), 1u);
  EXPECT_EQ(t.parameters[0].gen, DataGen::Randn);
  EXPECT_DOUBLE_EQ(t.parameters[0].scale, 0.5);
  EXPECT_EQ(dims_str(t.parameters[0].dims), "[D, M]");
  ASSERT_EQ(t.fns.size(), 2u);
  EXPECT_EQ(t.fns[0].func_name, "fn_acc");
  EXPECT_EQ(t.fns[0].display_name, "Acc");
  EXPECT_TRUE(t.fns[0].stateful());
  EXPECT_EQ(*t.fns[0].init, std::vector<double>{0.0});
  EXPECT_EQ(t.fns[0].body, "s = state0 + in0\nreturn s\n");
  EXPECT_FALSE(t.fns[1].stateful());
  EXPECT_EQ(t.fns[1].input.str(), "[fp32, Buffer(fp32, [D])]");
  EXPECT_EQ(t.fns[1].output.str(), "Buffer(fp32, [D])");
  EXPECT_EQ(t.find_fn("fn_two"), &t.fns[1]);
  EXPECT_EQ(t.find_fn("fn_three"), nullptr);
  ASSERT_EQ(t.outputs.size(), 1u);
  EXPECT_EQ(t.outputs[0].name, "S0");
  EXPECT_EQ(t.reference, "return sum(E0, axis=1)\n");
  EXPECT_EQ(t.verify.seeds, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_DOUBLE_EQ(t.verify.atol, 0.001);
  EXPECT_DOUBLE_EQ(t.verify.rtol, 1.3e-6);
  // alt_sizes overrides the listed symbols and keeps the others
  ASSERT_TRUE(t.verify.alt_sizes);
  EXPECT_EQ(*t.verify.alt_sizes, (SizeBinding{{"M", 4}, {"N", 7}, {"D", 16}}));
  EXPECT_EQ(t.bindings().size(), 2u);
  EXPECT_TRUE(t.meta.present);
  EXPECT_EQ(t.meta.origin, "X");
  EXPECT_EQ(t.meta.copies, 0);
  EXPECT_EQ(t.meta.attr, "C");
  EXPECT_EQ(t.meta.needs.at("Accum"), 1);
  EXPECT_EQ(t.meta.len, 3);
  ASSERT_TRUE(t.impl);
  EXPECT_EQ(*t.impl, "E2 = step.Accum(fn=fn_acc, b=1).apply(E0)\nreturn E2\n");
  EXPECT_EQ(t.impl_loc, (Location{39, 7}));
  TaskNames n = task_names(t);
  EXPECT_EQ(n.inputs.size(), 2u);
  EXPECT_TRUE(n.parameters.count("W"));
  EXPECT_TRUE(n.fns.count("fn_two"));
  EXPECT_TRUE(n.outputs.count("S0"));
  EXPECT_TRUE(n.sizes.count("D"));
}

TEST(TaskLoader, DefaultsWithoutOptionalKeys) {
  std::string text = kGood.substr(0, kGood.find("verify:"));
  text = replace(text, "parameters:\n  - {name: W, dims: [D, M], data_gen: randn, scale: 0.5}\n", "");
  Loaded l = load(text);
  ASSERT_TRUE(l.doc);
  EXPECT_EQ(l.doc->verify.seeds, (std::vector<std::uint64_t>{42, 43}));
  EXPECT_DOUBLE_EQ(l.doc->verify.atol, 1e-5);
  EXPECT_FALSE(l.doc->verify.alt_sizes);
  EXPECT_FALSE(l.doc->meta.present);
  EXPECT_FALSE(l.doc->impl);
  EXPECT_TRUE(l.doc->parameters.empty());
  EXPECT_EQ(l.doc->bindings().size(), 1u);
}

TEST(TaskLoader, BodyLineStartsAreFileRelative) {
  Loaded l = load(kGood);
  ASSERT_TRUE(l.doc);
  const TaskDoc& t = *l.doc;
  ASSERT_GE(t.fns[0].body_line_starts.size(), 2u);
  EXPECT_EQ(t.fns[0].body_line_starts[0], (Location{20, 7}));
  EXPECT_EQ(t.fns[0].body_line_starts[1], (Location{21, 7}));
  ASSERT_GE(t.fns[1].body_line_starts.size(), 1u);
  EXPECT_EQ(t.fns[1].body_line_starts[0], (Location{26, 11}));  // plain one-line scalar
  ASSERT_GE(t.reference_line_starts.size(), 1u);
  EXPECT_EQ(t.reference_line_starts[0], (Location{30, 3}));
  ASSERT_GE(t.impl_line_starts.size(), 2u);
  EXPECT_EQ(t.impl_line_starts[0], (Location{40, 3}));
  EXPECT_EQ(t.impl_line_starts[1], (Location{41, 3}));
}

TEST(TaskLoader, BodyLineStartsForOtherScalarForms) {
  // quoted one-line scalar: the first content character follows the quote
  Loaded q = load(replace(kGood, "    body: return in1 * in0", "    body: \"return in1 * in0\""));
  ASSERT_TRUE(q.doc);
  EXPECT_EQ(q.doc->fns[1].body_line_starts[0], (Location{26, 12}));
  // |- with deeper indentation and a leading blank line
  Loaded s = load(replace(kGood, "reference: |\n  return sum(E0, axis=1)\n", "reference: |-\n\n     return sum(E0, axis=1)\n"));
  ASSERT_TRUE(s.doc) << s.diags[0].message;
  EXPECT_EQ(s.doc->reference, "\nreturn sum(E0, axis=1)");
  ASSERT_GE(s.doc->reference_line_starts.size(), 2u);
  EXPECT_EQ(s.doc->reference_line_starts[0], (Location{30, 6}));
  EXPECT_EQ(s.doc->reference_line_starts[1], (Location{31, 6}));
  // explicit indentation indicator: content indented 2 past the key's column (4)
  Loaded e = load(replace(kGood, "    body: |\n      s = state0 + in0\n      return s\n",
                          "    body: |2\n        s = state0 + in0\n      return s\n"));
  ASSERT_TRUE(e.doc) << e.diags[0].message;
  EXPECT_EQ(e.doc->fns[0].body, "  s = state0 + in0\nreturn s\n");
  EXPECT_EQ(e.doc->fns[0].body_line_starts[0], (Location{20, 7}));
  // CRLF line ends give the same positions
  std::string crlf;
  for (char c : kGood) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  Loaded c = load(crlf);
  ASSERT_TRUE(c.doc) << c.diags[0].message;
  EXPECT_EQ(c.doc->fns[0].body_line_starts[1], (Location{21, 7}));
  EXPECT_EQ(c.doc->impl_line_starts[0], (Location{40, 3}));
}

TEST(TaskLoader, RawTextWithoutImplMetaVerify) {
  Loaded l = load(kGood);
  ASSERT_TRUE(l.doc);
  const std::string& raw = l.doc->raw_text_without_impl;
  EXPECT_EQ(raw.find("impl:"), std::string::npos);
  EXPECT_EQ(raw.find("meta:"), std::string::npos);
  EXPECT_EQ(raw.find("verify:"), std::string::npos);
  EXPECT_EQ(raw.find("step.Accum"), std::string::npos);
  EXPECT_EQ(raw.find("origin"), std::string::npos);
  EXPECT_NE(raw.find("reference: |\n  return sum(E0, axis=1)\n"), std::string::npos);
  EXPECT_EQ(raw.rfind("dialect: step-v1\n", 0), 0u);
  // what remains is itself a valid task document
  Diagnostics d;
  auto again = load_task_text(raw, "", d);
  ASSERT_TRUE(again) << d[0].message;
  EXPECT_FALSE(again->impl);
  EXPECT_FALSE(again->meta.present);
}

TEST(TaskLoader, StarInsideDimsAndBodiesIsNotAnAlias) {
  std::string text = replace(kGood, "dims: [D, M], data_gen: randn", "dims: [D*M, M/1], data_gen: randn");
  text = replace(text, "      return s\n", "      return s * 2 ** 1\n");
  Loaded l = load(text);
  ASSERT_TRUE(l.doc) << l.diags[0].message;
  EXPECT_EQ(l.doc->parameters[0].dims[0].str(), "D*M");
}

TEST(TaskLoader, DocumentErrorsHaveExactLocations) {
  expect_first(replace(kGood, "    name: Acc", "    nme: Acc"), "D-KEY", 15, 5, "did you mean 'name'?");
  expect_first(replace(kGood, "verify: {", "verfy: {"), "D-KEY", 31, 1, "did you mean 'verify'?");
  expect_first(replace(kGood, "  len: 3", "  length: 3"), "D-KEY", 38, 3, "unknown key 'length' in meta");
  expect_first(replace(kGood, "    output_dtype: fp32\n", ""), "D-MISSING", 14, 5,
               "missing required key 'output_dtype' in fns[0]");
  expect_first(replace(kGood, "title: Scale rows\n", ""), "D-MISSING", 1, 1, "'title'");
  expect_first(replace(kGood, "sizes: {M: 5, N: 7, D: 16}", "sizes: [M, N]"), "D-TYPE", 7, 8, "sizes");
  expect_first(replace(kGood, "dims: [M, N], data_gen: rand}", "dims: M, data_gen: rand}"), "D-TYPE", 9, 35);
  expect_first(replace(kGood, "{M: 5, N: 7", "{M: five, N: 7"), "D-TYPE", 7, 12, "size M");
  expect_first(replace(kGood, "{M: 5, N: 7", "{M: 0, N: 7"), "D-VALUE", 7, 12);
  expect_first(replace(kGood, "title: Scale rows", "title: [a, b]"), "D-TYPE", 4, 8);
  expect_first(replace(kGood, "dialect: step-v1", "dialect: step-v3"), "D-DIALECT", 1, 10, "step-v3");
  expect_first(replace(kGood, "{name: E0, dtype", "{name: _E0, dtype"), "D-NAME", 9, 12);
  expect_first(replace(kGood, "{name: W, dims", "{name: E0, dims"), "D-DUP", 12, 12, "E0");
  expect_first(replace(kGood, "{name: S0, dtype: fp32, dims: [N]}", "{name: S0, dtype: fp32, dims: [Q]}"),
               "D-UNBOUND", 28, 36, "'Q'");
  expect_first(replace(kGood, "    input_dtype: fp32", "    input_dtype: fp16"), "D-DTYPE", 16, 18, "fp16");
  expect_first(replace(kGood, "{name: E0, dtype: fp32,", "{name: E0, dtype: \"[fp32, fp32]\","), "D-DTYPE", 9, 23,
               "tuple");
  expect_first(replace(kGood, "dims: [M, N], data_gen: rand}", "dims: [M, N-1], data_gen: rand}"), "D-DIM", 9, 39);
  expect_first(replace(kGood, "min: 1, max: 2", "min: 1, max: 20"), "D-VALUE", 10, 88, "lane count");
  expect_first(replace(kGood, "min: 1, max: 2", "min: 3, max: 2"), "D-VALUE", 10, 80, "exceeds max");
  expect_first(replace(kGood, ", min: 1, max: 2", ""), "D-MISSING", 10, 5, "'min'");
  expect_first(replace(kGood, "data_gen: rand}", "data_gen: rand, min: 1}"), "D-KEY", 9, 59, "multihot");
  expect_first(replace(kGood, "data_gen: rand}", "data_gen: randm}"), "D-VALUE", 9, 53, "did you mean");
  expect_first(replace(kGood, "    init: [0]", "    init: [0, 0]"), "D-VALUE", 18, 11, "init");
  expect_first(replace(kGood, "    output_dtype: fp32\n    init: [0]", "    output_dtype: \"Multihot(fp32, D)\"\n    init: [0.5]"),
               "D-VALUE", 18, 12, "must be 0 or 1");
  expect_first(replace(kGood, "alt_sizes: {M: 4}", "alt_sizes: {Q: 4}"), "D-KEY", 31, 53, "not a size symbol");
  expect_first(replace(kGood, "id: toy/scale", "id: other/scale"), "D-VALUE", 2, 5);
  expect_first(replace(kGood, "  copies: 0\n", "  copies: 0\n  copies: 1\n"), "D-KEY", 35, 3, "duplicate key");
}

TEST(TaskLoader, AnchorsAndAliasesAreRejected) {
  expect_first(replace(kGood, "sizes: {M: 5", "sizes: &s {M: 5"), "D-ALIAS", 7, 8);
  expect_first(replace(kGood, "title: Scale rows", "title: &t Scale rows\ngroup2: *t"), "D-ALIAS", 4, 8);
  expect_first(replace(kGood, "dims: [M, N], data_gen: rand}", "dims: *d, data_gen: rand}"), "D-ALIAS", 9, 35);
  // the classic alias bomb is rejected at its first anchor without expanding anything
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
                     "c: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c]\n";
  expect_first(bomb, "D-ALIAS", 1, 4);
}

TEST(TaskLoader, RawLimits) {
  // invalid UTF-8 at the first bad byte (line 4, after "title: Scale")
  expect_first(replace(kGood, "title: Scale rows", "title: Scale\xff rows"), "D-UTF8", 4, 13, "0xFF");
  expect_first(replace(kGood, "title: Scale rows", "title: Sc\xc3\xa4le \xc0\xaf"), "D-UTF8", 4, 15, "0xC0");
  expect_first(replace(kGood, "title: Scale rows", "title: \xe2\x82 x"), "D-UTF8", 4, 8);
  // more than 1 MiB
  std::string huge = kGood + "# " + std::string(kMaxDocumentBytes, 'x') + "\n";
  expect_first(huge, "D-SIZE", 42, static_cast<int>(kMaxDocumentBytes - kGood.size()) + 1);
  // 64 levels are fine, 65 are not (the root mapping is level 1)
  auto nested = [](int levels) {
    return replace(kGood, "description: |\n  Toy task.\n",
                   "description: x\nextra: " + std::string(static_cast<std::size_t>(levels), '[') +
                       std::string(static_cast<std::size_t>(levels), ']') + "\n");
  };
  expect_first(nested(63), "D-KEY", 6, 1, "extra");
  expect_first(nested(64), "D-DEPTH", 6, 8 + 63, "64");
  expect_first(nested(100000), "D-DEPTH", 6, 8 + 63);
  // truncated YAML
  expect_first(kGood.substr(0, kGood.find("dims: [M, N]") + 8), "D-YAML", 9, -1);
  // empty file, comments only, scalar document
  expect_first("", "D-MISSING", 1, 1, "empty");
  expect_first("# nothing here\n", "D-MISSING", 1, 1, "empty");
  expect_first("just text\n", "D-TYPE", 1, 1, "mapping");
  expect_first("a: 1\n---\nb: 2\n", "D-YAML", 2, 1);
}

TEST(TaskLoader, SolutionAndMutantFiles) {
  Diagnostics d;
  AnyDoc s = load_any_text("task: toy/scale\nimpl: |\n  E2 = step.Accum(fn=fn_acc, b=1).apply(E0)\n  return E2\n",
                           "s.yaml", d);
  ASSERT_TRUE(s.solution);
  EXPECT_FALSE(s.task);
  EXPECT_FALSE(s.mutants);
  EXPECT_EQ(s.solution->task_id, "toy/scale");
  EXPECT_EQ(s.solution->impl_line_starts[0], (Location{3, 3}));
  EXPECT_EQ(s.solution->impl_line_starts[1], (Location{4, 3}));
  EXPECT_EQ(s.solution->loc, (Location{2, 7}));

  AnyDoc m = load_any_text(
      "task: toy/scale\nmutants:\n  - name: m1\n    what: \"x\"\n    stage: parse\n    code: P-SYNTAX\n"
      "    impl: |\n      E2 = step.Zip(E0)\n      return E2\n",
      "m.yaml", d);
  ASSERT_TRUE(m.mutants) << (d.empty() ? "" : d[0].message);
  ASSERT_EQ(m.mutants->mutants.size(), 1u);
  const MutantDoc& mu = m.mutants->mutants[0];
  EXPECT_EQ(mu.name, "m1");
  EXPECT_EQ(mu.stage, "parse");
  EXPECT_EQ(mu.code, "P-SYNTAX");
  EXPECT_EQ(mu.impl_line_starts[0], (Location{8, 7}));
  EXPECT_TRUE(d.empty());

  AnyDoc t = load_any_text(kGood, "t.yaml", d);
  EXPECT_TRUE(t.task);

  Diagnostics bad;
  AnyDoc b = load_any_text("task: toy/scale\nimpl: |\n  return E0\nimlp: x\n", "", bad);
  EXPECT_FALSE(b.solution);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0].code, "D-KEY");
  EXPECT_EQ(bad[0].loc, (Location{4, 1}));

  Diagnostics bad2;
  AnyDoc b2 = load_any_text("task: toy/scale\nmutants:\n  - {name: m, stage: parsing, code: P-SYNTAX, impl: x}\n", "",
                            bad2);
  EXPECT_FALSE(b2.mutants);
  ASSERT_EQ(bad2.size(), 1u);
  EXPECT_EQ(bad2[0].code, "D-VALUE");
  EXPECT_EQ(bad2[0].loc, (Location{3, 22}));
}

TEST(TaskLoader, FilesAndIoErrors) {
  Diagnostics d;
  EXPECT_FALSE(load_task_file("/nonexistent/dir/x.yaml", d));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "IO-READ");
  Diagnostics d2;
  auto t = load_task_file(std::string(SF_SOURCE_DIR) + "/resources/benchmark/attention/online_softmax_fused.yaml", d2);
  ASSERT_TRUE(t) << (d2.empty() ? "" : d2[0].message);
  EXPECT_EQ(t->id, "attention/online_softmax_fused");
  EXPECT_TRUE(t->fns.at(0).stateful());
}
