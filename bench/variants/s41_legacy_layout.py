p='/tmp/trimm-prebuild/tree/src/sched/pair_order.hpp'
s=open(p).read()
old_src=open('/tmp/old_po.hpp').read()
i=old_src.index('// The schedule\'s tiles in pairs.\ninline std::vector<TilePair> tile_pairs')
j=old_src.index('// A tile in a layout entry')
old_tp=old_src[i:j].replace('tile_pairs','legacy_tile_pairs').replace('std::vector<TilePair>','std::vector<LegacyPair>').replace('pairs.emplace_back(','pairs.push_back(LegacyPair(')
old_tp=old_tp.replace('s.whole_unit(bi, j + 1));','s.whole_unit(bi, j + 1)));').replace('loose[t + 1] : loose[t]);','loose[t + 1] : loose[t]));')
k=old_src.index('template <class Cost>\nstd::vector<TilePair> weighed_pairs')
l=old_src.index('// The pair layout for `clusters` clusters of two under cost(unit), or none')
old_wp=old_src[k:l].replace('std::vector<TilePair>','std::vector<LegacyPair>').replace('const TilePair&','const LegacyPair&').replace('tile_pairs(s)','legacy_tile_pairs(s)').replace('weighed_pairs','legacy_weighed_pairs')
legacy='''using LegacyPair = std::pair<WorkUnit, WorkUnit>;
'''+old_tp+old_wp+'''template <class Cost>
PairLayout pair_order(const TriangleSchedule& s, int64_t clusters, int max_lag, Cost&& cost) {
  PairLayout d{};
  std::vector<double> w;
  const std::vector<LegacyPair> pairs = legacy_weighed_pairs(s, clusters, max_lag, cost, w);
  if (pairs.empty()) return d;
  auto bins = improve_bins(lpt_bins(w, clusters), w);
  bins.erase(std::remove_if(bins.begin(), bins.end(), [](const auto& b) { return b.empty(); }),
             bins.end());
  std::stable_sort(bins.begin(), bins.end(),
                   [](const auto& x, const auto& y) { return x.size() > y.size(); });
  std::vector<pair_detail::Streams> streams(bins.size());
  size_t levels = 0;
  for (size_t c = 0; c < bins.size(); ++c) {
    int64_t ahead = 0;
    for (int idx : bins[c]) {
      const LegacyPair& p = pairs[size_t(idx)];
      const bool swap = (s.steps(p.first) > s.steps(p.second)) != (ahead < 0);
      const WorkUnit& r0 = swap ? p.second : p.first;
      const WorkUnit& r1 = swap ? p.first : p.second;
      const bool same = r0.bi == r1.bi && r0.bj == r1.bj;
      const int a = s.steps(r0), b = s.steps(r1);
      streams[c].tile(0, r0);
      if (same) streams[c].idle(1, b); else streams[c].tile(1, r1);
      streams[c].idle(0, b - a);
      streams[c].idle(1, a - b);
      ahead += a - b;
    }
    for (auto& l : streams[c].rank) levels = std::max(levels, l.size());
  }
  const int64_t blocks = 2 * int64_t(streams.size());
  if (blocks * int64_t(levels) > PairLayout::kMaxEntries) return d;
  d.blocks = int(blocks);
  d.count = int(blocks * int64_t(levels));
  for (size_t i = 0; i < levels; ++i)
    for (size_t c = 0; c < streams.size(); ++c)
      for (int r = 0; r < 2; ++r) {
        const auto& list = streams[c].rank[r];
        d.tile[i * size_t(blocks) + 2 * c + size_t(r)] = i < list.size() ? list[i] : PairLayout::kHole;
      }
  return d;
}
'''
s=s.replace('PairLayout pair_order(const TriangleSchedule& s, int64_t clusters, int max_lag, Cost&& cost) {\n  using namespace pair_detail;','PairLayout new_pair_order(const TriangleSchedule& s, int64_t clusters, int max_lag, Cost&& cost) {\n  using namespace pair_detail;')
end=s.rindex('}  // namespace trimm::sched')
s=s[:end]+legacy+'\n'+s[end:]
open(p,'w').write(s)
