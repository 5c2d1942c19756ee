/**
 * One statement for what many callers ask in the same turn: PGlite runs one statement at a time
 * at about a millisecond each whatever it does, so thirty jobs that each mark their row or delete
 * themselves at once are better served by one multi-row statement than by thirty (D91).
 */

/**
 * A function whose calls made in the same turn of the event loop are handed to `run` together;
 * `run` answers one result per input, in order. A failure fails every call of its batch.
 */
export function coalesced<In, Out>(run: (inputs: In[]) => Promise<Out[]>): (input: In) => Promise<Out> {
  let pending: { input: In; resolve: (out: Out) => void; reject: (error: unknown) => void }[] = []
  return (input) =>
    new Promise<Out>((resolve, reject) => {
      pending.push({ input, resolve, reject })
      if (pending.length > 1) return
      setImmediate(() => {
        const batch = pending
        pending = []
        run(batch.map((b) => b.input)).then(
          (outs) => {
            batch.forEach((b, i) => {
              b.resolve(outs[i] as Out)
            })
          },
          (error: unknown) => {
            for (const b of batch) b.reject(error)
          },
        )
      })
    })
}
