// The cost-annotated source (issue 33 item 2) in the editor itself: a text margin beside each statement of a
// STeP-25 impl with its node's utilisation bar (coloured by what limits the node: PMU reads, compute,
// write-back, HBM requests, waiting), busy cycles and share of the total, off-chip / on-chip bytes and
// compute_bw, abbreviated to stay narrow at 1366x768, e.g. "█▋   8.2k cyc  41% · 1.3M/256K B · bw 64"
// (K = 1,024 B, M = 1,048,576 B). When that full form would take more than kMaxWidthShare of the editor's
// width (the editor beside the docks at 1366x768), the margin shows the compact form, bar, cycles and share
// ("██▉ 16.4k  97%"), and leaves the rest to the hover; it chooses again whenever the editor is resized.
// Hovering the margin shows the line's nodes in words, with units (inspect::perf2::node_words). Clicking it
// puts the cursor on the line (which selects the node in the explorer). When the program stops checking, the
// last good numbers stay, grey, marked stale in the hover; clear() removes the margin (not a v2 document).
// Uses only QsciScintilla's public API: margin kMargin (0 = line numbers, 1 = issue markers belong to the
// editor) and an event filter on its viewport for the hover.
#pragma once

#include <QColor>
#include <QFont>
#include <QObject>
#include <QPointer>
#include <QString>

#include <Qsci/qscistyle.h>

#include <map>
#include <vector>

#include "widgets/perf2/perf2_types.hpp"

class QsciScintilla;

namespace sf::widgets::perf2 {

// "16.4k", "999", "1.2M": a count in at most five characters.
QString abbrevCount(std::int64_t v);
// "512K", "1.3M", "0": a byte count in binary units (K = 1,024), the unit B left to the caller.
QString abbrevBytes(std::int64_t v);
inline constexpr int kBarCells = 3;
// A bar of `cells` character cells, as long as `share` (0..1) in eighths of a cell; one eighth at least when
// share > 0; padded with spaces to `cells`.
QString shareBar(double share, int cells = kBarCells);
// The margin's text for one node (without the bar): "16.4k cyc  97% · 512K/64K B · bw 4096".
QString costMarginText(const step2::perf::NodeReport& n, std::int64_t totalCycles);
// The compact form (without the bar): busy cycles and share only, "16.4k  97%".
QString compactCostMarginText(const step2::perf::NodeReport& n, std::int64_t totalCycles);

class CostMargin : public QObject {
  Q_OBJECT
 public:
  static constexpr int kMargin = 2;
  // The largest share of the editor's viewport width the full form may take.
  static constexpr double kMaxWidthShare = 0.3;
  explicit CostMargin(QsciScintilla* editor, QObject* parent = nullptr);

  // Shows a good timing: `editorLineOfImplLine[k]` is the 0-based editor line of impl line k + 1 (-1: none).
  void setOutcome(const Outcome& o, const std::vector<int>& editorLineOfImplLine);
  // The program no longer checks (or loads): keep the numbers, grey, with `why` at the top of the hover.
  void markStale(const QString& why);
  // Not a STeP-25 document: no margin.
  void clear();

  bool shown() const { return !rows_.empty(); }
  bool stale() const { return stale_; }
  QString staleReason() const { return staleWhy_; }
  // Per 0-based editor line: the margin text (bar included; "" when the line has no node), the limit whose
  // colour the bar has, and the hover text.
  // marginText is the form shown now; fullMarginText the full form whichever is shown.
  QString marginText(int line) const;
  QString fullMarginText(int line) const;
  bool compact() const { return compact_; }
  step2::perf::Limit limitAt(int line) const;
  QColor barColorAt(int line) const;
  QString hoverText(int line) const;
  int marginWidth() const;
  // The editor line under a viewport point when it is over the cost margin, else -1.
  int lineAtMargin(const QPoint& viewportPos) const;

 protected:
  bool eventFilter(QObject* watched, QEvent* e) override;

 private:
  struct Row {
    int node = -1;            // the statement's node shown (the busiest non-implicit node of the line)
    std::vector<int> nodes;   // every node of the line (the hover lists them all)
  };
  static constexpr int kMarginPad = 12;  // px beside the text
  void render();
  bool wantCompact() const;
  QFont marginFont() const;
  QString compactMarginText(int line) const;
  void makeStyles();

  QPointer<QsciScintilla> editor_;  // may go first when the window closes
  Outcome outcome_;
  std::map<int, Row> rows_;  // by 0-based editor line
  bool stale_ = false;
  bool compact_ = false;  // the compact form is shown (the full one is too wide for the editor)
  QString staleWhy_;
  QsciStyle text_, staleStyle_;
  std::map<int, QsciStyle> bars_;  // by Limit
};

}  // namespace sf::widgets::perf2
