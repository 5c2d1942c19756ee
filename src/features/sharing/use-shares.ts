/** Facade for the share controls: the person's shared conversations, what is under way, the intents. */
import { SharesActor } from './shares-actor.ts'

export function useShares() {
  const shares = SharesActor.useActorRef()
  return {
    shares: SharesActor.useSelector((s) => s.context.shares),
    loaded: SharesActor.useSelector((s) => !s.matches('loading')),
    pendingId: SharesActor.useSelector((s) => s.context.pendingId),
    problem: SharesActor.useSelector((s) => s.context.problem),
    share(conversationId: string) {
      shares.send({ type: 'shares.share', conversationId })
    },
    revoke(conversationId: string) {
      shares.send({ type: 'shares.revoke', conversationId })
    },
  }
}
