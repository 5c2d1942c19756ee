/**
 * The public chat's effects (issue 37): its own slots (the assistant and the visitor's
 * conversation, feedback) and the chat's sender given the visitor's calls. The sender asks with
 * `conversationId` '' for a new conversation (the server makes it with the first answer, so the
 * sender's "create" step is never taken) and with the visitor's pass: the host site's token and a
 * solved challenge, which the machine keeps and hands over before each send (a challenge once).
 */
import { type EventObject, fromCallback, fromPromise } from 'xstate'
import type { Feedback } from '#contracts/chat.ts'
import type { PublicAskRequest, PublicAssistant } from '#contracts/publishing.ts'
import { reportingNotProvided, type SenderDeps } from '#machines/chat/chat-effects.ts'
import { senderMachine } from '#machines/chat/sender-machine.ts'
import { type Logger, notProvided } from '#machines/shared/effects.ts'
import {
  type PublicAnswer,
  toChatMessage,
  toChatReply,
  type VisitorConversation,
} from './public-chat-model.ts'

export type VisitorStream = { onToken: (text: string) => void; signal: AbortSignal }

export type PublicChatDeps = {
  getAssistant: () => Promise<PublicAssistant>
  /**
   * The visitor's current conversation, or null when they have none: by the host's token when
   * there is one (the same on every device), else by the visitor's cookie.
   */
  getConversation: (userToken: string | null) => Promise<VisitorConversation | null>
  ask: (body: PublicAskRequest, stream: VisitorStream) => Promise<PublicAnswer>
  /** `userToken`: a signed visitor's answers are theirs by their token, not by the cookie. */
  feedback: (messageId: string, feedback: Feedback, userToken: string | null) => Promise<void>
  log: Logger
}

/** What goes with the next question besides its text; the challenge is spent by the one ask. */
export type VisitorPass = { userToken: string | null; challenge: string | null }

const notOffered = (what: string) => () =>
  Promise.reject(new Error(`publicChat: ${what} is not offered to visitors`))

/** The sender's calls, from the visitor's: the pass is read (and its challenge spent) at each ask. */
export function senderDepsOf(deps: PublicChatDeps, pass: VisitorPass): SenderDeps {
  return {
    createConversation: notOffered('creating a conversation apart from its first question'),
    uploadFile: notOffered('uploading a file'),
    regenerate: notOffered('writing an answer again'),
    // A stopped answer is looked for in the visitor's current conversation (token or cookie).
    listMessages: async () =>
      ((await deps.getConversation(pass.userToken))?.messages ?? []).map(toChatMessage),
    sendMessage: async (conversationId, content, stream) => {
      const { userToken, challenge } = pass
      pass.challenge = null
      const answer = await deps.ask(
        {
          content,
          ...(conversationId ? { conversationId } : {}),
          ...(userToken ? { userToken } : {}),
          ...(challenge ? { challenge } : {}),
        },
        { onToken: stream.onToken, signal: stream.signal },
      )
      return toChatReply(answer)
    },
    log: deps.log,
  }
}

/** The machine's own slots, calling `deps`. */
export function publicChatActors(deps: PublicChatDeps) {
  return {
    load: fromPromise<
      { assistant: PublicAssistant; conversation: VisitorConversation | null },
      { userToken: string | null }
    >(async ({ input }) => {
      const [assistant, conversation] = await Promise.all([
        deps.getAssistant(),
        deps.getConversation(input.userToken),
      ])
      return { assistant, conversation }
    }),
    learnConversation: fromPromise<VisitorConversation | null, { userToken: string | null }>(({ input }) =>
      deps.getConversation(input.userToken),
    ),
    sendFeedback: fromCallback<
      EventObject,
      { messageId: string; feedback: Feedback; previous: Feedback | null; userToken: string | null }
    >(({ input, sendBack }) => {
      deps.feedback(input.messageId, input.feedback, input.userToken).then(
        () => sendBack({ type: 'public.rated', messageId: input.messageId }),
        (error: unknown) => {
          deps.log.error('Public chat: Saving feedback failed', error)
          sendBack({ type: 'public.rateFailed', messageId: input.messageId, previous: input.previous, error })
        },
      )
    }),
  }
}

/** The machine's actors, before providePublicChatMachine gives them their calls. */
export const publicChatActorSlots = {
  load: notProvided<
    { assistant: PublicAssistant; conversation: VisitorConversation | null },
    { userToken: string | null }
  >('load'),
  learnConversation: notProvided<VisitorConversation | null, { userToken: string | null }>(
    'learnConversation',
  ),
  sendFeedback: reportingNotProvided<{
    messageId: string
    feedback: Feedback
    previous: Feedback | null
    userToken: string | null
  }>('sendFeedback'),
  sender: senderMachine,
}
