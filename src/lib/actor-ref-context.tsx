/**
 * A React context for an actor that already runs: a child of another actor (the chat, a child of
 * the dashboard's wiring actor: D106). The same hooks as @xstate/react's createActorContext, whose
 * Provider can only start an actor of its own.
 */
import { useSelector as useActorSelector } from '@xstate/react'
import { createContext, type ReactNode, use } from 'react'
import type { AnyActorRef, SnapshotFrom } from 'xstate'

export function createActorRefContext<TActor extends AnyActorRef>(name: string) {
  const Context = createContext<TActor | null>(null)
  function useActorRef(): TActor {
    const actor = use(Context)
    if (!actor) throw new Error(`${name}: its hooks need <${name}.Provider> above them.`)
    return actor
  }
  return {
    Provider({ actor, children }: { actor: TActor; children: ReactNode }) {
      return <Context value={actor}>{children}</Context>
    },
    useActorRef,
    useSelector<T>(selector: (snapshot: SnapshotFrom<TActor>) => T, compare?: (a: T, b: T) => boolean): T {
      // The generic actor hides its snapshot type from @xstate/react's inference; it is SnapshotFrom<TActor>.
      const actor: Pick<AnyActorRef, 'subscribe' | 'getSnapshot'> = useActorRef()
      return useActorSelector(actor, selector as (snapshot: unknown) => T, compare)
    },
  }
}
