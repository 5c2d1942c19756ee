/** Hybrid retrieval's last step: the keyword ranking and the vector ranking made one. */
import type { Passage } from './passages.ts'

/** Reciprocal rank fusion's constant: the usual 60. */
export const RRF_K = 60

/** Reciprocal rank fusion of rankings (best first): each passage scores Σ 1 / (RRF_K + rank). */
export function fuse(rankings: Passage[][]): Passage[] {
  const fused = new Map<string, Passage>()
  for (const ranking of rankings)
    ranking.forEach((p, i) => {
      const score = 1 / (RRF_K + i + 1)
      const seen = fused.get(p.chunkId)
      fused.set(p.chunkId, { ...(seen ?? p), rank: (seen?.rank ?? 0) + score })
    })
  return [...fused.values()].sort((a, b) => b.rank - a.rank || a.chunkId.localeCompare(b.chunkId))
}
