// StepApis: autocompletion and call tips for the STeP editor. Completes primitives after `step.`, the
// parameters of the primitive being called (`fn=`, `b=`, ...), task fns, size symbols, the task's input
// streams and the streams the program defines above the cursor; call tips show the primitive's call form,
// one-line doc and dims rule. Names, parameters and texts come from the primitive table
// (core/step/primitives.hpp). While the lexer's dialect is STeP-25 it answers with step2_apis (operators,
// each operator's kwargs, the operator card as the call tip).
#pragma once

#include <QStringList>

#include <Qsci/qsciabstractapis.h>

namespace sf::widgets {

class StepLexer;

class StepApis : public QsciAbstractAPIs {
  Q_OBJECT
 public:
  explicit StepApis(StepLexer* lexer);

  struct TaskNamesForCompletion {
    QStringList inputs, fns, sizes;
  };
  void setTaskNames(TaskNamesForCompletion names) { task_ = std::move(names); }

  void updateAutoCompletionList(const QStringList& context, QStringList& list) override;
  QStringList callTips(const QStringList& context, int commas, QsciScintilla::CallTipsStyle style,
                       QList<int>& shifts) override;

  // The completions for `prefix`, given the text of the current line before the cursor and the impl lines
  // above it (pure; used by updateAutoCompletionList and the tests).
  QStringList completions(const QString& prefix, const QString& lineBeforeCursor, const QStringList& linesAbove,
                          bool afterStepDot) const;
  // The parameters a primitive takes, as "fn=", "b=", ...
  static QStringList primitiveParameters(const QString& primitive);
  static QStringList primitives();
  // Streams defined by `lines` (targets of assignments whose right side calls step. or is a comprehension).
  static QStringList definedStreams(const QStringList& lines);

 private:
  StepLexer* stepLexer_;
  TaskNamesForCompletion task_;
};

}  // namespace sf::widgets
