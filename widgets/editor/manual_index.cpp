#include "widgets/editor/manual_index.hpp"

#include <QDir>
#include <QFile>

#include "core/bench/catalogue.hpp"

namespace sf::widgets {

namespace {

QString readUtf8(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.read(1024 * 1024));
}

}  // namespace

QMap<QString, ManualIndex::Signature> ManualIndex::parseCheatSheet(const QString& markdown) {
  QMap<QString, Signature> out;
  const QStringList lines = markdown.split(QLatin1Char('\n'));
  for (const QString& raw : lines) {
    const QString line = raw.trimmed();
    if (!line.startsWith(QLatin1Char('|'))) continue;
    QStringList cells = line.split(QLatin1Char('|'));
    // "| a | b | c |" → "", a, b, c, ""
    if (cells.size() < 4) continue;
    const QString name = cells[1].trimmed();
    const QString call = cells[2].trimmed();
    if (name.isEmpty() || !name[0].isUpper() || !call.contains(QLatin1String("step."))) continue;
    Signature s;
    s.call = QString(call).remove(QLatin1Char('`'));
    s.rule = cells.mid(3, cells.size() - 4).join(QLatin1Char('|')).trimmed().remove(QLatin1Char('`'));
    out.insert(name, s);
  }
  return out;
}

ManualIndex ManualIndex::load(const QString& manualDir) {
  ManualIndex m;
  QDir dir(manualDir);
  const QStringList files = dir.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
  for (const QString& f : files) {
    const QString path = dir.absoluteFilePath(f);
    QString title = f;
    QFile file(path);
    if (file.open(QIODevice::ReadOnly)) {
      const QString first = QString::fromUtf8(file.readLine(4096)).trimmed();
      if (first.startsWith(QLatin1Char('#'))) title = first.mid(first.indexOf(QLatin1Char(' ')) + 1).trimmed();
    }
    m.chapters_.push_back({path, title});
  }
  m.signatures_ = parseCheatSheet(readUtf8(dir.absoluteFilePath(QStringLiteral("cheatsheet.md"))));
  return m;
}

ManualIndex ManualIndex::loadBundled() {
  return load(QString::fromStdString(bench::resource_dir()) + QStringLiteral("/manual"));
}

}  // namespace sf::widgets
