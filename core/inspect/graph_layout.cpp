#include "core/inspect/graph_layout.hpp"

#include <algorithm>
#include <cstddef>
#include <deque>
#include <limits>

namespace sf::inspect {

namespace {

struct Vertex {
  double w = 0, h = 0;
  int row = 0;
  std::vector<int> up, down;  // neighbours in the rows above and below
  double x = 0, y = 0;
};

int count_crossings(const std::vector<std::vector<int>>& rows, const std::vector<Vertex>& vs,
                    const std::vector<int>& pos) {
  int total = 0;
  for (std::size_t r = 0; r + 1 < rows.size(); ++r) {
    std::vector<std::pair<int, int>> es;
    for (int v : rows[r])
      for (int w : vs[static_cast<std::size_t>(v)].down)
        es.emplace_back(pos[static_cast<std::size_t>(v)], pos[static_cast<std::size_t>(w)]);
    for (std::size_t i = 0; i < es.size(); ++i)
      for (std::size_t j = i + 1; j < es.size(); ++j)
        if ((es[i].first - es[j].first) * (es[i].second - es[j].second) < 0) ++total;
  }
  return total;
}

// Places one row as close as possible to `desired` keeping the order and the minimum separations.
void place_row(const std::vector<int>& row, std::vector<Vertex>& vs, const std::vector<double>& desired,
               double gap) {
  const std::size_t n = row.size();
  if (n == 0) return;
  auto sep = [&](std::size_t i) {  // between row[i] and row[i+1]
    return (vs[static_cast<std::size_t>(row[i])].w + vs[static_cast<std::size_t>(row[i + 1])].w) / 2 + gap;
  };
  std::vector<double> a(n), b(n);
  a[0] = desired[0];
  for (std::size_t i = 1; i < n; ++i) a[i] = std::max(desired[i], a[i - 1] + sep(i - 1));
  b[n - 1] = desired[n - 1];
  for (std::size_t i = n - 1; i-- > 0;) b[i] = std::min(desired[i], b[i + 1] - sep(i));
  for (std::size_t i = 0; i < n; ++i) vs[static_cast<std::size_t>(row[i])].x = (a[i] + b[i]) / 2;
}

}  // namespace

LayoutResult layered_layout(const LayoutInput& in) {
  const std::size_t n = in.node_sizes.size();
  LayoutResult res;
  res.centers.resize(n);
  res.layers.assign(n, 0);
  res.edge_paths.resize(in.edges.size());
  res.label_centers.resize(in.edges.size());
  if (n == 0) return res;

  // 1. Topological order (Kahn, ties by index); nodes on cycles follow in index order.
  std::vector<std::vector<std::size_t>> out_e(n);
  std::vector<int> indeg(n, 0);
  auto valid = [&](const std::pair<int, int>& e) {
    return e.first >= 0 && e.second >= 0 && static_cast<std::size_t>(e.first) < n &&
           static_cast<std::size_t>(e.second) < n && e.first != e.second;
  };
  for (std::size_t i = 0; i < in.edges.size(); ++i) {
    if (!valid(in.edges[i])) continue;
    out_e[static_cast<std::size_t>(in.edges[i].first)].push_back(i);
    ++indeg[static_cast<std::size_t>(in.edges[i].second)];
  }
  std::vector<int> topo_pos(n, -1);
  std::vector<std::size_t> order;
  std::deque<std::size_t> ready;
  for (std::size_t v = 0; v < n; ++v)
    if (indeg[v] == 0) ready.push_back(v);
  while (!ready.empty()) {
    std::size_t v = ready.front();
    ready.pop_front();
    topo_pos[v] = static_cast<int>(order.size());
    order.push_back(v);
    for (std::size_t e : out_e[v]) {
      auto w = static_cast<std::size_t>(in.edges[e].second);
      if (--indeg[w] == 0) ready.push_back(w);
    }
  }
  for (std::size_t v = 0; v < n; ++v)
    if (topo_pos[v] < 0) {
      topo_pos[v] = static_cast<int>(order.size());
      order.push_back(v);
    }

  // Layout edges go forward in topological order (edges on cycles are reversed).
  std::vector<std::pair<std::size_t, std::size_t>> fe(in.edges.size());
  std::vector<bool> reversed(in.edges.size(), false), used(in.edges.size(), false);
  std::vector<std::vector<std::size_t>> preds(n), succs(n);
  for (std::size_t i = 0; i < in.edges.size(); ++i) {
    if (!valid(in.edges[i])) continue;
    auto u = static_cast<std::size_t>(in.edges[i].first), v = static_cast<std::size_t>(in.edges[i].second);
    if (topo_pos[u] > topo_pos[v]) {
      std::swap(u, v);
      reversed[i] = true;
    }
    fe[i] = {u, v};
    used[i] = true;
    preds[v].push_back(u);
    succs[u].push_back(v);
  }

  // 2. Longest-path layering; sources sit just above their first consumer.
  std::vector<int> rank(n, 0);
  for (std::size_t v : order)
    for (std::size_t u : preds[v]) rank[v] = std::max(rank[v], rank[u] + 1);
  for (std::size_t v = 0; v < n; ++v) {
    if (!preds[v].empty() || succs[v].empty()) continue;
    int m = std::numeric_limits<int>::max();
    for (std::size_t w : succs[v]) m = std::min(m, rank[w]);
    rank[v] = std::max(0, m - 1);
  }

  // 3. Grid: node row r is grid row 2r; every edge gets a label slot at 2r+1 and dummy slots further down.
  std::vector<Vertex> vs(n);
  int max_row = 0;
  for (std::size_t v = 0; v < n; ++v) {
    vs[v].w = in.node_sizes[v].first;
    vs[v].h = in.node_sizes[v].second;
    vs[v].row = 2 * rank[v];
    max_row = std::max(max_row, vs[v].row);
  }
  std::vector<std::vector<int>> chains(in.edges.size());  // virtual vertices per edge, top to bottom
  for (std::size_t i = 0; i < in.edges.size(); ++i) {
    if (!used[i]) continue;
    auto [u, v] = fe[i];
    int prev = static_cast<int>(u);
    for (int r = vs[u].row + 1; r < vs[v].row; ++r) {
      Vertex d;
      d.row = r;
      const bool label = r == vs[u].row + 1 && i < in.label_sizes.size();
      d.w = label ? in.label_sizes[i].first : 6;
      d.h = label ? in.label_sizes[i].second : 0;
      vs.push_back(d);
      int id = static_cast<int>(vs.size()) - 1;
      vs[static_cast<std::size_t>(prev)].down.push_back(id);
      vs.back().up.push_back(prev);
      chains[i].push_back(id);
      prev = id;
    }
    vs[static_cast<std::size_t>(prev)].down.push_back(static_cast<int>(v));
    vs[v].up.push_back(prev);
  }
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(max_row) + 1);
  for (std::size_t v = 0; v < vs.size(); ++v)
    rows[static_cast<std::size_t>(vs[v].row)].push_back(static_cast<int>(v));

  // 4. Crossing reduction: barycentre sweeps, keeping the best ordering seen.
  std::vector<int> pos(vs.size());
  auto index_rows = [&] {
    for (const auto& row : rows)
      for (std::size_t k = 0; k < row.size(); ++k)
        pos[static_cast<std::size_t>(row[k])] = static_cast<int>(k);
  };
  index_rows();
  auto best_rows = rows;
  int best = count_crossings(rows, vs, pos);
  for (int iter = 0; iter < 16 && best > 0; ++iter) {
    const bool down = iter % 2 == 0;
    for (std::size_t k = 1; k < rows.size(); ++k) {
      auto& row = rows[down ? k : rows.size() - 1 - k];
      std::vector<std::pair<double, int>> keyed;
      for (int v : row) {
        const auto& nb = down ? vs[static_cast<std::size_t>(v)].up : vs[static_cast<std::size_t>(v)].down;
        double key = pos[static_cast<std::size_t>(v)];
        if (!nb.empty()) {
          double s = 0;
          for (int w : nb) s += pos[static_cast<std::size_t>(w)];
          key = s / static_cast<double>(nb.size());
        }
        keyed.emplace_back(key, v);
      }
      std::stable_sort(keyed.begin(), keyed.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::size_t j = 0; j < row.size(); ++j) {
        row[j] = keyed[j].second;
        pos[static_cast<std::size_t>(row[j])] = static_cast<int>(j);
      }
    }
    int c = count_crossings(rows, vs, pos);
    if (c < best) {
      best = c;
      best_rows = rows;
    }
  }
  rows = best_rows;
  index_rows();
  res.crossings = best;

  // 5. Coordinates: pack, then pull every vertex towards its neighbours' mean, alternating directions.
  for (const auto& row : rows) {
    std::vector<double> desired(row.size(), 0.0);
    place_row(row, vs, desired, in.node_gap);
  }
  for (int iter = 0; iter < 24; ++iter) {
    const bool down = iter % 2 == 0;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const auto& row = rows[down ? k : rows.size() - 1 - k];
      std::vector<double> desired;
      for (int v : row) {
        const auto& vx = vs[static_cast<std::size_t>(v)];
        const auto& nb = down ? vx.up : vx.down;
        const auto& other = down ? vx.down : vx.up;
        const auto& use = nb.empty() ? other : nb;
        double d = vx.x;
        if (!use.empty()) {
          double s = 0;
          for (int w : use) s += vs[static_cast<std::size_t>(w)].x;
          d = s / static_cast<double>(use.size());
        }
        desired.push_back(d);
      }
      place_row(row, vs, desired, in.node_gap);
    }
  }
  double min_x = std::numeric_limits<double>::max(), max_x = std::numeric_limits<double>::lowest();
  for (const auto& v : vs) {
    min_x = std::min(min_x, v.x - v.w / 2);
    max_x = std::max(max_x, v.x + v.w / 2);
  }
  double y = 0;
  for (const auto& row : rows) {
    double h = 0;
    for (int v : row) h = std::max(h, vs[static_cast<std::size_t>(v)].h);
    for (int v : row) {
      vs[static_cast<std::size_t>(v)].x -= min_x;
      vs[static_cast<std::size_t>(v)].y = y + h / 2;
    }
    y += h + in.layer_gap;
  }
  res.width = max_x - min_x;
  res.height = std::max(0.0, y - in.layer_gap);

  // 6. Results.
  for (std::size_t v = 0; v < n; ++v) {
    res.centers[v] = {vs[v].x, vs[v].y};
    res.layers[v] = rank[v];
  }
  for (std::size_t i = 0; i < in.edges.size(); ++i) {
    if (!used[i]) continue;
    auto [u, v] = fe[i];
    auto& path = res.edge_paths[i];
    path.push_back({vs[u].x, vs[u].y + vs[u].h / 2});
    for (int d : chains[i])
      path.push_back({vs[static_cast<std::size_t>(d)].x, vs[static_cast<std::size_t>(d)].y});
    path.push_back({vs[v].x, vs[v].y - vs[v].h / 2});
    if (!chains[i].empty())
      res.label_centers[i] = path[1];
    else
      res.label_centers[i] = {(path.front().x + path.back().x) / 2, (path.front().y + path.back().y) / 2};
    if (reversed[i]) std::reverse(path.begin(), path.end());
  }
  return res;
}

}  // namespace sf::inspect
