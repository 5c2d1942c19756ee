/**
 * Keeps `process.nextTick` on V8's fast path for the life of the process (README D13). Import it
 * first in the entry point, before anything that allocates much.
 *
 * Node 24 builds every queued tick as an object literal with computed keys
 * (lib/internal/process/task_queues.js). Optimized code defines those keys inline only while each
 * key's feedback is monomorphic, and the feedback holds the tick's shapes (hidden classes) weakly.
 * A full GC that runs while no tick is queued (PGlite's start runs several) frees those shapes;
 * the next tick builds new ones, the feedback goes megamorphic, which is final, and every tick
 * from then on defines its keys in the runtime: ~0.6 µs more per tick, several ticks per HTTP
 * request. Holding one tick object keeps its shapes alive, so the feedback never goes stale.
 */
import { executionAsyncResource } from 'node:async_hooks'

let heldTick: object | undefined

process.nextTick(() => {
  // Inside a nextTick callback the current async resource is the tick object itself.
  heldTick = executionAsyncResource()
})

/** The tick object this module holds (undefined until the first tick has run). */
export function heldTickObject(): object | undefined {
  return heldTick
}
