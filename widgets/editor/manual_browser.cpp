#include "widgets/editor/manual_browser.hpp"

#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace sf::widgets {

ManualBrowser::ManualBrowser(ManualIndex manual, QWidget* parent)
    : QWidget(parent, Qt::Window), manual_(std::move(manual)), list_(new QListWidget), text_(new QTextBrowser) {
  setWindowTitle(tr("STeP Manual"));
  auto* split = new QSplitter(this);
  split->addWidget(list_);
  split->addWidget(text_);
  split->setStretchFactor(1, 3);
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  lay->addWidget(split);
  text_->setOpenLinks(false);
  connect(text_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    showChapter(QFileInfo(url.path()).completeBaseName());
  });
  for (const auto& c : manual_.chapters()) list_->addItem(c.title);
  connect(list_, &QListWidget::currentRowChanged, this, &ManualBrowser::showIndex);
  if (list_->count() > 0) list_->setCurrentRow(0);
  resize(900, 650);
}

int ManualBrowser::chapterCount() const { return list_->count(); }

void ManualBrowser::showIndex(int row) {
  if (row < 0 || row >= manual_.chapters().size()) return;
  QFile f(manual_.chapters()[row].file);
  markdown_ = f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.read(1024 * 1024)) : tr("(cannot read %1)").arg(f.fileName());
  text_->setMarkdown(markdown_);
}

bool ManualBrowser::showChapter(const QString& name) {
  for (int i = 0; i < manual_.chapters().size(); ++i) {
    if (QFileInfo(manual_.chapters()[i].file).completeBaseName() == name) {
      list_->setCurrentRow(i);
      return true;
    }
  }
  return false;
}

}  // namespace sf::widgets
