// The STeP manual as the GUI uses it: the chapter files of resources/manual/ (for Help → STeP Manual) and the
// primitive signatures of its cheat sheet (the tests check them against the primitive table, which the
// editor's call tips read).
#pragma once

#include <QMap>
#include <QString>
#include <QVector>

namespace sf::widgets {

class ManualIndex {
 public:
  struct Chapter {
    QString file;   // absolute path
    QString title;  // first heading, without '#'
  };
  struct Signature {
    QString call;  // "step.Map(fn=f).apply(X) / .apply((X1, X2))"
    QString rule;  // the dims rule
  };

  // Loads <manualDir>/*.md (sorted by file name) and the cheat sheet's primitive table.
  static ManualIndex load(const QString& manualDir);
  // The bundled manual: bench::resource_dir()/manual.
  static ManualIndex loadBundled();

  const QVector<Chapter>& chapters() const { return chapters_; }
  // Primitive name → signature (empty when the manual does not list it).
  Signature signature(const QString& primitive) const { return signatures_.value(primitive); }
  const QMap<QString, Signature>& signatures() const { return signatures_; }

  // Parses the rows "| Prim | `call` / `call` | rule |" of a markdown table.
  static QMap<QString, Signature> parseCheatSheet(const QString& markdown);

 private:
  QVector<Chapter> chapters_;
  QMap<QString, Signature> signatures_;
};

}  // namespace sf::widgets
