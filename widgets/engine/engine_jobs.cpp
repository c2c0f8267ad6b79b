#include "widgets/engine/engine_jobs.hpp"

#include <QCoreApplication>

#include "core/bench/catalogue.hpp"
#include "core/step/copy_insert.hpp"
#include "core/step/printer.hpp"

namespace sf::widgets {

QString jobKindName(JobKind k) {
  switch (k) {
    case JobKind::Check: return QCoreApplication::translate("sf::widgets", "Check");
    case JobKind::Simulate: return QCoreApplication::translate("sf::widgets", "Simulate");
    case JobKind::Verify: return QCoreApplication::translate("sf::widgets", "Verify");
    case JobKind::Rewrite: return QCoreApplication::translate("sf::widgets", "Rewrite");
  }
  return {};
}

QVector<IssueRow> toIssueRows(const Diagnostics& ds) {
  QVector<IssueRow> rows;
  rows.reserve(static_cast<qsizetype>(ds.size()));
  for (const auto& d : ds)
    rows.push_back({d.severity, QString::fromStdString(d.code), QString::fromStdString(d.message), d.loc.line,
                    d.loc.column});
  return rows;
}

namespace {

QStringList names(const auto& decls) {
  QStringList l;
  for (const auto& d : decls) l << QString::fromStdString(d.name);
  return l;
}

}  // namespace

CheckSnapshot makeCheckSnapshot(std::string_view text, const std::string& path, const bench::Catalogue* cat) {
  CheckSnapshot s;
  Diagnostics diags;
  auto p = inspect::load_and_check(text, path, cat, diags);
  if (p) {
    diags.insert(diags.end(), p->result.diags.begin(), p->result.diags.end());
    s.documentLoaded = true;
    s.ok = p->result.ok();
    s.taskId = QString::fromStdString(p->task.id);
    s.streams = inspect::stream_annotations(*p);
    s.inputs = names(p->task.inputs);
    s.parameters = names(p->task.parameters);
    s.outputs = names(p->task.outputs);
    for (const auto& f : p->task.fns) s.fns << QString::fromStdString(f.func_name);
    for (const auto& [k, v] : p->task.sizes) s.sizes << QString::fromStdString(k);
    if (p->result.program) {
      for (const auto& st : p->result.program->stmts)
        for (const auto& t : st.targets) s.programStreams << QString::fromStdString(t);
      s.graph = std::make_shared<const inspect::DataflowGraph>(inspect::build_dataflow_graph(
          *p->result.program, p->result.typed ? &*p->result.typed : nullptr, p->task));
    }
    s.program = std::move(p);
  }
  s.issues = toIssueRows(diags);
  return s;
}

std::optional<std::string> replaceImplBlock(std::string_view document, std::string_view impl) {
  std::vector<std::string_view> lines;
  for (std::size_t pos = 0; pos <= document.size();) {
    std::size_t nl = document.find('\n', pos);
    if (nl == std::string_view::npos) {
      if (pos < document.size()) lines.push_back(document.substr(pos));
      break;
    }
    lines.push_back(document.substr(pos, nl - pos));
    pos = nl + 1;
  }
  auto rstrip = [](std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
  };
  std::size_t header = lines.size();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    if (!l.starts_with("impl:")) continue;
    std::string_view v = l.substr(5);
    if (auto hash = v.find(" #"); hash != std::string_view::npos) v = v.substr(0, hash);
    v = rstrip(v);
    while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
    if (v == "|" || v == "|-" || v == "|+") header = i;
    break;
  }
  if (header == lines.size()) return std::nullopt;
  // The block: following lines that are blank or indented; trailing blank lines stay after it.
  std::size_t end = header + 1, lastContent = header;
  std::size_t indent = 0;
  while (end < lines.size()) {
    std::string_view l = rstrip(lines[end]);
    if (!l.empty() && l.front() != ' ') break;
    if (!l.empty()) {
      lastContent = end;
      if (indent == 0) indent = l.find_first_not_of(' ');
    }
    ++end;
  }
  if (indent == 0) indent = 2;
  std::string out;
  for (std::size_t i = 0; i <= header; ++i) out.append(lines[i]).push_back('\n');
  std::string pad(indent, ' ');
  for (std::size_t pos = 0; pos < impl.size();) {
    std::size_t nl = impl.find('\n', pos);
    std::string_view l = impl.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (!l.empty()) out.append(pad).append(l);
    out.push_back('\n');
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  for (std::size_t i = lastContent + 1; i < lines.size(); ++i) {
    out.append(lines[i]);
    if (i + 1 < lines.size() || document.ends_with('\n')) out.push_back('\n');
  }
  return out;
}

RewriteSnapshot rewriteDocument(RewriteKind kind, std::string_view text, const std::string& path,
                                const bench::Catalogue* cat) {
  RewriteSnapshot s;
  s.kind = kind;
  Diagnostics diags;
  auto p = inspect::load_and_check(text, path, cat, diags);
  if (p && !p->result.program) diags.insert(diags.end(), p->result.diags.begin(), p->result.diags.end());
  if (!p || !p->result.program) {
    s.issues = toIssueRows(diags);
    return s;
  }
  step::Program prog = *p->result.program;
  if (kind == RewriteKind::InsertCopies) prog = step::insert_copies(prog, step::task_names(p->task));
  auto doc = replaceImplBlock(text, step::print_program(prog));
  if (!doc) {
    s.issues.push_back({Severity::Error, QStringLiteral("D-NO-IMPL"),
                        QCoreApplication::translate("sf::widgets",
                                                    "the program can only be rewritten in a block `impl: |`"),
                        1, 1});
    return s;
  }
  s.ok = true;
  s.text = QString::fromStdString(*doc);
  return s;
}

}  // namespace sf::widgets
