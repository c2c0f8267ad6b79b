#include "widgets/editor/step_apis.hpp"

#include <QRegularExpression>

#include <Qsci/qsciscintilla.h>

#include "core/step/primitives.hpp"
#include "widgets/editor/step2_apis.hpp"
#include "widgets/editor/step_lexer.hpp"

namespace sf::widgets {

StepApis::StepApis(StepLexer* lexer) : QsciAbstractAPIs(lexer), stepLexer_(lexer) {}

namespace {
// A name or key of the primitive table (plain ASCII) as a QString.
QString primTableText(std::string_view s) {
  return QString::fromLatin1(s.data(), static_cast<qsizetype>(s.size()));
}
// A text of the primitive table that may hold non-ASCII signs (→, ≤) as a QString.
QString primTableUtf8(std::string_view s) {
  return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
}  // namespace

QStringList StepApis::primitives() {
  QStringList out;
  for (const auto& e : step::primitives()) out << primTableText(e.name);
  return out;
}

QStringList StepApis::primitiveParameters(const QString& p) {
  QStringList out;
  if (auto prim = step::prim_from_name(p.toStdString()))
    for (const auto& param : step::prim_info(*prim).params)
      out << primTableText(param.key) + QLatin1Char('=');
  return out;
}

QStringList StepApis::definedStreams(const QStringList& lines) {
  static const QRegularExpression def(
      QStringLiteral(R"(^\s*\(?\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*,?\s*\)?\s*=\s*(step\s*\.|\[\s*step\s*\.))"));
  QStringList out;
  for (const QString& l : lines) {
    auto m = def.match(l);
    if (!m.hasMatch()) continue;
    for (const QString& n : m.captured(1).split(QLatin1Char(','))) out << n.trimmed();
  }
  return out;
}

QStringList StepApis::completions(const QString& prefix, const QString& lineBeforeCursor,
                                  const QStringList& linesAbove, bool afterStepDot) const {
  if (stepLexer_ && stepLexer_->dialect() == StepLexer::Dialect::V2)
    return step2_apis::completions(prefix, lineBeforeCursor, definedStreams(linesAbove), task_.inputs, task_.sizes,
                                   afterStepDot);
  QStringList cands;
  if (afterStepDot) {
    cands = primitives();
  } else {
    // Inside step.P( ... ) before the closing parenthesis: that primitive's parameters first.
    static const QRegularExpression openCall(QStringLiteral(R"(step\s*\.\s*([A-Za-z]+)\s*\(([^()]*)$)"));
    auto m = openCall.match(lineBeforeCursor);
    if (m.hasMatch()) cands << primitiveParameters(m.captured(1));
    cands << task_.fns << task_.inputs << definedStreams(linesAbove) << task_.sizes;
    cands << QStringLiteral("step") << QStringLiteral("return");
  }
  QStringList out;
  for (const QString& c : cands)
    if (c.startsWith(prefix) && c != prefix && !out.contains(c)) out << c;
  return out;
}

void StepApis::updateAutoCompletionList(const QStringList& context, QStringList& list) {
  if (context.isEmpty()) return;
  const QString prefix = context.last();
  const bool afterStepDot = context.size() >= 2 && context[context.size() - 2] == QLatin1String("step");
  QString before;
  QStringList above;
  if (QsciScintilla* ed = stepLexer_ ? stepLexer_->editor() : nullptr) {
    int line = 0, index = 0;
    ed->getCursorPosition(&line, &index);
    before = ed->text(line).left(index);
    // Only the impl block's lines count as definitions (the line state says where a line is).
    for (int l = 0; l < line; ++l) {
      auto st = StepLexer::LineState::decode(
          static_cast<int>(ed->SendScintilla(QsciScintillaBase::SCI_GETLINESTATE, static_cast<unsigned long>(l))));
      if (st.ctx == StepLexer::Impl) above << ed->text(l);
    }
  }
  list << completions(prefix, before, above, afterStepDot);
}

QStringList StepApis::callTips(const QStringList& context, int, QsciScintilla::CallTipsStyle, QList<int>& shifts) {
  // The context ends with the word before the '(' (and possibly an empty word).
  for (auto it = context.crbegin(); it != context.crend(); ++it) {
    if (it->isEmpty()) continue;
    if (stepLexer_ && stepLexer_->dialect() == StepLexer::Dialect::V2) {
      const QString tip = step2_apis::callTip(*it);
      if (tip.isEmpty()) return {};
      shifts << 0;
      return {tip};
    }
    auto prim = step::prim_from_name(it->toStdString());
    if (!prim) return {};
    const step::PrimInfo& info = step::prim_info(*prim);
    shifts << 0;
    return {primTableUtf8(info.call) + QStringLiteral("\n") + primTableUtf8(info.doc) + QStringLiteral("\n") +
            tr("dims: %1").arg(primTableUtf8(info.rule))};
  }
  return {};
}

}  // namespace sf::widgets
