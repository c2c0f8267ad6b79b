// STeP-25 completion and call tips for the editor (StepApis delegates here while the document is step-v2).
// Operators and their kwargs come from the checker's own table (core/step2/ops.hpp: what the checker accepts),
// the call tip of `step.Op(` is the operator's row of the operator card (resources/manual_v2/operators.md, the
// card agents read), read once and laid out as labelled lines.
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

namespace sf::widgets {

// The operator card: one entry per table row ("| `Op` | kwargs | type rule | ... |").
class Step2Card {
 public:
  struct Entry {
    QString op;
    QStringList kwargs;  // the kwarg names the row lists, in order
    QString tip;         // the row as labelled lines ("kwargs: ...", "type: ...", ...), wrapped
  };

  // Parses the card's Markdown (defensively: rows that are not operator rows are skipped, at most 64 rows,
  // each cell cut at 2,000 characters).
  static Step2Card parse(const QString& markdown);
  // The card of the bundled resources (bench::resource_dir()/manual_v2/operators.md), read on first use; empty
  // when the file is missing.
  static const Step2Card& bundled();

  const Entry* find(const QString& op) const;
  int size() const { return static_cast<int>(entries_.size()); }
  const QList<Entry>& entries() const { return entries_; }

 private:
  QList<Entry> entries_;
};

namespace step2_apis {

QStringList operators();
// "tile=", "stride=", ... for an operator (the checker's kwargs), empty when `op` is not one.
QStringList kwargs(const QString& op);
QStringList tileFns();
// Completions for `prefix` in a step-v2 program (pure; StepApis::completions in v2): operators after
// `step.`; inside `step.Op(` that operator's kwargs (and the tile fns after `fn=`); otherwise the task's
// tensors, the streams defined above, sizes and keywords.
QStringList completions(const QString& prefix, const QString& lineBeforeCursor, const QStringList& definedAbove,
                        const QStringList& tensors, const QStringList& sizes, bool afterStepDot);
// The call tip of operator `op`: its signature from the checker's table, then its card row; empty when unknown.
QString callTip(const QString& op);

}  // namespace step2_apis

}  // namespace sf::widgets
