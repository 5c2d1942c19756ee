/**
 * The public chat's machine with its calls (providePublicChatMachine), and what the page reads of
 * its snapshot.
 */
import { assign, type SnapshotFrom } from 'xstate'
import { provideSenderMachine } from '#machines/chat/sender-machine.ts'
import {
  type PublicChatDeps,
  publicChatActors,
  senderDepsOf,
  type VisitorPass,
} from './public-chat-effects.ts'
import { publicChatMachine } from './public-chat-machine.ts'
import * as screen from './public-chat-model.ts'

export type PublicChatSnapshot = SnapshotFrom<typeof publicChatMachine>

/** An answer is on its way, or the conversation it made is being read: the composer waits. */
export function isBusy(snapshot: PublicChatSnapshot): boolean {
  return snapshot.context.sending || !snapshot.matches({ ready: 'settled' })
}

export function providePublicChatMachine(deps: PublicChatDeps) {
  const pass: VisitorPass = { userToken: null, challenge: null }
  const sender = provideSenderMachine(senderDepsOf(deps, pass)).provide({
    // A visitor reads why an answer failed, in the server's words (the dashboard only on 429).
    actions: {
      storeNotice: assign((_, params: { error: unknown }) => ({
        notice: screen.visitorNoticeOf(params.error),
      })),
    },
  })
  return publicChatMachine.provide({
    actors: { ...publicChatActors(deps), sender },
    actions: {
      sharePass: (_: unknown, params: VisitorPass) => {
        pass.userToken = params.userToken
        pass.challenge = params.challenge
      },
    },
  })
}
