#include "widgets/inspect/graph_view.hpp"

#include <QApplication>
#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsPolygonItem>
#include <QGraphicsScene>
#include <QLabel>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace sf::widgets {

namespace {

constexpr double kPadX = 10, kPadY = 6;

QFont subtitle_font(const QFont& base) {
  QFont f = base;
  f.setPointSizeF(std::max(6.0, base.pointSizeF() * 0.8));
  return f;
}

QFont label_font(const QFont& base) {
  QFont f = base;
  f.setPointSizeF(std::max(6.0, base.pointSizeF() * 0.8));
  return f;
}

// One node: a rounded box with a title and a smaller subtitle.
class NodeItem : public QGraphicsItem {
 public:
  NodeItem(const inspect::GraphNode& n, const QFont& font, QColor fill = {})
      : node_(n), font_(font), sub_font_(subtitle_font(font)), costFill_(fill) {
    title_ = QString::fromStdString(n.title);
    subtitle_ = QString::fromStdString(n.subtitle);
    QFontMetricsF fm(font_), sm(sub_font_);
    double w = std::max(fm.horizontalAdvance(title_), sm.horizontalAdvance(subtitle_)) + 2 * kPadX;
    double h = fm.height() + (subtitle_.isEmpty() ? 0 : sm.height()) + 2 * kPadY;
    size_ = QSizeF(std::max(w, 48.0), h);
    setFlag(ItemIsSelectable, n.kind != inspect::GraphNode::Kind::Unused);
    setToolTip(title_ + "\n" + subtitle_);
  }
  QSizeF size() const { return size_; }
  QRectF boundingRect() const override {
    return QRectF(-size_.width() / 2 - 3, -size_.height() / 2 - 3, size_.width() + 6, size_.height() + 6);
  }
  void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
    QRectF r(-size_.width() / 2, -size_.height() / 2, size_.width(), size_.height());
    QColor fill, border(QStringLiteral("#555555"));
    Qt::PenStyle style = Qt::SolidLine;
    switch (node_.kind) {
      case inspect::GraphNode::Kind::Input:
        fill = QColor(QStringLiteral("#dbeafe"));
        break;
      case inspect::GraphNode::Kind::Primitive:
        fill = QColor(QStringLiteral("#fffbea"));
        break;
      case inspect::GraphNode::Kind::Output:
        fill = QColor(QStringLiteral("#dcfce7"));
        break;
      case inspect::GraphNode::Kind::Unused:
        fill = QColor(QStringLiteral("#fee2e2"));
        border = GraphView::violationColor();
        style = Qt::DashLine;
        break;
    }
    if (costFill_.isValid()) fill = costFill_;
    QPen pen(border, isSelected() ? 3.0 : 1.2, style);
    if (isSelected()) pen.setColor(QApplication::palette().highlight().color());
    p->setRenderHint(QPainter::Antialiasing);
    p->setPen(pen);
    p->setBrush(fill);
    const double radius = node_.kind == inspect::GraphNode::Kind::Primitive ? 4 : r.height() / 2;
    p->drawRoundedRect(r, radius, radius);
    p->setPen(Qt::black);
    QFontMetricsF fm(font_);
    p->setFont(font_);
    QRectF tr(r.left(), r.top() + kPadY, r.width(), fm.height());
    p->drawText(tr, Qt::AlignHCenter | Qt::AlignVCenter, title_);
    if (!subtitle_.isEmpty()) {
      p->setFont(sub_font_);
      p->setPen(QColor(QStringLiteral("#555555")));
      QRectF sr(r.left(), tr.bottom(), r.width(), QFontMetricsF(sub_font_).height());
      p->drawText(sr, Qt::AlignHCenter | Qt::AlignVCenter, subtitle_);
    }
  }

 private:
  inspect::GraphNode node_;
  QFont font_, sub_font_;
  QColor costFill_;
  QString title_, subtitle_;
  QSizeF size_;
};

QPainterPath edge_path(const std::vector<inspect::LayoutPoint>& pts) {
  QPainterPath path;
  if (pts.empty()) return path;
  path.moveTo(pts[0].x, pts[0].y);
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const auto& a = pts[i - 1];
    const auto& b = pts[i];
    const double dy = (b.y - a.y) / 2;
    path.cubicTo(a.x, a.y + dy, b.x, b.y - dy, b.x, b.y);
  }
  return path;
}

// A filled arrow head at the end of a path, pointing along its last (vertical) segment.
QPolygonF arrow_head(const std::vector<inspect::LayoutPoint>& pts) {
  QPolygonF head;
  if (pts.size() < 2) return head;
  const auto& e = pts.back();
  const double dir = e.y >= pts[pts.size() - 2].y ? 1.0 : -1.0;
  head << QPointF(e.x, e.y) << QPointF(e.x - 4, e.y - 8 * dir) << QPointF(e.x + 4, e.y - 8 * dir);
  return head;
}

}  // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent), scene_(new QGraphicsScene(this)) {
  setScene(scene_);
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setBackgroundBrush(Qt::white);
  setAccessibleName(tr("Dataflow graph"));
  connect(scene_, &QGraphicsScene::selectionChanged, this, &GraphView::onSelectionChanged);
}

GraphView::~GraphView() {
  // The scene deletes its items after this object's members are gone: stop listening first.
  syncing_ = true;
  disconnect(scene_, nullptr, this, nullptr);
}

QColor GraphView::violationColor() {
  return QColor(QStringLiteral("#d00000"));
}
QColor GraphView::edgeColor() {
  return QColor(QStringLiteral("#6b7280"));
}

void GraphView::setGraph(inspect::DataflowGraph graph) {
  graph_ = std::move(graph);
  rebuildScene();
}

void GraphView::clearGraph() {
  setGraph({});
}

void GraphView::setCostReport(std::shared_ptr<const cost::CostReport> report) {
  if (report == cost_) return;
  cost_ = std::move(report);
  rebuildScene();
}

QColor GraphView::shareColor(double share, double maxShare) {
  // White-yellow (idle) to orange-red (the busiest node).
  const double t = maxShare > 0 ? std::clamp(share / maxShare, 0.0, 1.0) : 0.0;
  const QColor a(QStringLiteral("#fffbea")), b(QStringLiteral("#f97316"));
  return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                          static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                          static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

void GraphView::rebuildScene() {
  syncing_ = true;
  scene_->clear();
  nodes_.clear();
  edges_.clear();
  labels_.clear();
  syncing_ = false;

  const QFont base = font();
  const QFont lfont = label_font(base);
  QFontMetricsF lm(lfont);

  overlay_ = cost_ ? inspect::graph_cost_overlay(graph_, *cost_) : inspect::GraphCostOverlay{};
  const bool withCost = cost_ != nullptr;
  auto edgeText = [&](std::size_t i) {
    QString text = QString::fromStdString(graph_.edges[i].label());
    if (withCost && overlay_.edge_tokens[i] >= 0) text += tr(" · %n token(s)", "", static_cast<int>(overlay_.edge_tokens[i]));
    return text;
  };
  inspect::LayoutInput in;
  std::vector<NodeItem*> items;
  for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
    inspect::GraphNode n = graph_.nodes[i];
    QColor fill;
    const double share = withCost ? overlay_.node_share[i] : -1;
    const double util = withCost && i < overlay_.node_utilisation.size() ? overlay_.node_utilisation[i] : -1;
    if (util >= 0) {
      n.subtitle += " · " + tr("%1 % utilised").arg(util * 100, 0, 'f', 1).toStdString();
      fill = utilisationColor(util);
    }
    auto* item = new NodeItem(n, base, fill);
    item->setData(KindKey, QStringLiteral("node"));
    item->setData(IndexKey, static_cast<int>(i));
    if (share >= 0) item->setData(ShareKey, share);
    if (util >= 0) {
      item->setData(UtilisationKey, util);
      item->setToolTip(tr("%1 % utilised: busy %2 of %3 cycles")
                           .arg(util * 100, 0, 'f', 1)
                           .arg(overlay_.node_busy[i])
                           .arg(cost_->cycles));
    }
    item->setZValue(2);
    items.push_back(item);
    in.node_sizes.emplace_back(item->size().width(), item->size().height());
  }
  for (std::size_t i = 0; i < graph_.edges.size(); ++i) {
    const auto& e = graph_.edges[i];
    in.edges.emplace_back(e.from, e.to);
    QString text = edgeText(i);
    in.label_sizes.emplace_back(lm.horizontalAdvance(text) + 8, lm.height() + 2);
  }
  layout_ = inspect::layered_layout(in);

  for (std::size_t i = 0; i < items.size(); ++i) {
    items[i]->setPos(layout_.centers[i].x, layout_.centers[i].y);
    scene_->addItem(items[i]);
    nodes_.push_back(items[i]);
  }
  for (std::size_t i = 0; i < graph_.edges.size(); ++i) {
    const auto& e = graph_.edges[i];
    const QColor color = e.violation ? violationColor() : edgeColor();
    auto* path = scene_->addPath(edge_path(layout_.edge_paths[i]), QPen(color, e.violation ? 2.2 : 1.2));
    path->setData(KindKey, QStringLiteral("edge"));
    path->setData(IndexKey, static_cast<int>(i));
    path->setZValue(e.violation ? 1 : 0);
    QString tip = QString::fromStdString(e.stream);
    if (!e.full_type.empty()) tip += QStringLiteral(": ") + QString::fromStdString(e.full_type);
    if (e.violation)
      tip += QStringLiteral("\n") + tr("Affinity violation: every stream must be used exactly once");
    path->setToolTip(tip);
    auto* head = new QGraphicsPolygonItem(arrow_head(layout_.edge_paths[i]), path);
    head->setPen(Qt::NoPen);
    head->setBrush(color);
    edges_.push_back(path);

    const QString text = edgeText(i);
    const auto& c = layout_.label_centers[i];
    const QSizeF ls(in.label_sizes[i].first, in.label_sizes[i].second);
    auto* box = scene_->addRect(QRectF(-ls.width() / 2, -ls.height() / 2, ls.width(), ls.height()),
                                QPen(e.violation ? violationColor() : QColor(QStringLiteral("#d1d5db")), 0.8),
                                QColor(255, 255, 255, 230));
    box->setPos(c.x, c.y);
    box->setZValue(3);
    box->setToolTip(tip);
    box->setData(KindKey, QStringLiteral("label"));
    box->setData(IndexKey, static_cast<int>(i));
    if (withCost && overlay_.edge_tokens[i] >= 0) box->setData(TokensKey, static_cast<qlonglong>(overlay_.edge_tokens[i]));
    auto* label = new QGraphicsSimpleTextItem(text, box);
    label->setFont(lfont);
    label->setBrush(e.violation ? violationColor() : QColor(QStringLiteral("#111827")));
    label->setPos(-ls.width() / 2 + 4, -ls.height() / 2 + 1);
    labels_.push_back(box);
  }
  scene_->setSceneRect(QRectF(-20, -20, layout_.width + 40, layout_.height + 40));
  // The legend of the node colours, over the view's top-left corner while there is a cost report.
  if (!legend_) {
    auto* l = new QLabel(viewport());
    l->setObjectName(QStringLiteral("GraphCostLegend"));
    l->setTextFormat(Qt::RichText);
    l->setAutoFillBackground(true);
    l->setMargin(4);
    l->setText(tr("Node colour: utilisation = busy / total cycles &nbsp;"
                  "<span style=\"background:%1\">&nbsp;0 %&nbsp;</span>"
                  "<span style=\"background:%2\">&nbsp;50 %&nbsp;</span>"
                  "<span style=\"background:%3\">&nbsp;100 %&nbsp;</span>")
                   .arg(utilisationColor(0).name(), utilisationColor(0.5).name(), utilisationColor(1).name()));
    l->move(6, 6);
    legend_ = l;
  }
  legend_->adjustSize();
  legend_->setVisible(withCost);
}

int GraphView::selectedNode() const {
  for (QGraphicsItem* item : scene_->selectedItems())
    if (item->data(KindKey).toString() == QStringLiteral("node")) return item->data(IndexKey).toInt();
  return -1;
}

QGraphicsItem* GraphView::nodeItem(int node) const {
  return node >= 0 && static_cast<std::size_t>(node) < nodes_.size() ? nodes_[static_cast<std::size_t>(node)]
                                                                     : nullptr;
}

QGraphicsPathItem* GraphView::edgeItem(int edge) const {
  return edge >= 0 && static_cast<std::size_t>(edge) < edges_.size() ? edges_[static_cast<std::size_t>(edge)]
                                                                     : nullptr;
}

QGraphicsItem* GraphView::edgeLabelItem(int edge) const {
  return edge >= 0 && static_cast<std::size_t>(edge) < labels_.size()
             ? labels_[static_cast<std::size_t>(edge)]
             : nullptr;
}

void GraphView::onSelectionChanged() {
  if (syncing_) return;
  const int n = selectedNode();
  if (n < 0) return;
  const int line = graph_.nodes[static_cast<std::size_t>(n)].line;
  if (line > 0) Q_EMIT statementActivated(line);
}

void GraphView::selectStatementAtLine(int line) {
  syncing_ = true;
  scene_->clearSelection();
  const int n = graph_.node_at_line(line);
  if (n >= 0) {
    nodes_[static_cast<std::size_t>(n)]->setSelected(true);
    ensureVisible(nodes_[static_cast<std::size_t>(n)], 40, 40);
  }
  syncing_ = false;
}

void GraphView::zoomToFit() {
  if (!scene_->items().isEmpty()) fitInView(scene_->sceneRect(), Qt::KeepAspectRatio);
}

void GraphView::zoomIn() {
  scale(1.25, 1.25);
}
void GraphView::zoomOut() {
  scale(0.8, 0.8);
}

void GraphView::wheelEvent(QWheelEvent* event) {
  if (event->modifiers() & Qt::ControlModifier) {
    const double f = std::pow(1.0015, event->angleDelta().y());
    scale(f, f);
    event->accept();
    return;
  }
  QGraphicsView::wheelEvent(event);
}

}  // namespace sf::widgets
