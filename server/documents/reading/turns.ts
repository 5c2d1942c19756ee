/**
 * Long work on the server's thread taking turns with everything else (D94): chunking a document
 * and detecting its passages' languages call `pause()` as they go, and every TURN_MS it lets the
 * event loop answer other people's requests before going on.
 */

/** Work between two turns of the event loop, at most (ms). */
export const TURN_MS = 4

/** A pause that waits for the event loop's next turn once TURN_MS has passed since the last one. */
export function takingTurns(): { pause: () => Promise<void> } {
  let turn = performance.now()
  return {
    async pause() {
      if (performance.now() - turn < TURN_MS) return
      await new Promise((resolve) => setImmediate(resolve))
      turn = performance.now()
    },
  }
}
