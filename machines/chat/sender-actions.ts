/**
 * The sender's setup (its slots, actions and guards) and the named actions its machine
 * (sender-machine.ts) takes: each step of an exchange, as a change to what it keeps and a fact
 * (ExchangeFact) told to its surface.
 */
import { assign, setup } from 'xstate'
import type { Conversation, Message } from '#contracts/chat.ts'
import { actionNotProvided, notProvided } from '#machines/shared/effects.ts'
import { failureOf } from '#machines/upload/upload-machine.ts'
import type { FileFacts } from '#machines/upload/upload-rules.ts'
import { reportingNotProvided } from './chat-effects.ts'
import { answerIdOf, noticeOf } from './chat-model.ts'
import type { ChatEvent, ChatInput, SenderCommand, SenderContext } from './chat-types.ts'
import {
  createdConversationOf,
  isSendableText,
  outgoingOf,
  outgoingTarget,
  startSending,
  stoppedSendOf,
  storedStop,
} from './sender-model.ts'

/**
 * After a Stop the server stores the answer so far when it sees the connection close, a moment
 * after the browser closed it: the conversation's messages are fetched until it is there, this
 * long apart, at most MAX_STOP_CHECKS times (then the bubbles keep their temporary ids, as before).
 */
export const STOP_CHECK_DELAY_MS = 150
export const MAX_STOP_CHECKS = 10

export const logAs = (failure: string) => ({
  type: 'logFailure' as const,
  params: ({ event }: { event: { error: unknown } }) => ({ failure, error: event.error }),
})

export const senderSetup = setup({
  types: {
    context: {} as SenderContext,
    events: {} as ChatEvent | SenderCommand,
    input: {} as ChatInput,
    tags: {} as 'loading' | 'sending' | 'streaming',
  },
  actors: {
    createConversation: notProvided<
      Conversation,
      { title: string; documentIds: string[]; assistantId: string | null }
    >('createConversation'),
    uploadAttachment: reportingNotProvided<{ conversationId: string; name: string; content: Blob }>(
      'uploadAttachment',
    ),
    sendMessage: reportingNotProvided<{ conversationId: string; content: string }>('sendMessage'),
    regenerate: reportingNotProvided<{ conversationId: string; messageId: string }>('regenerate'),
    listMessages: notProvided<Message[], { conversationId: string }>('listMessages'),
  },
  actions: {
    storeCreated: assign(({ context }, params: { conversation: Conversation }) => ({
      outgoing: {
        ...outgoingOf(context),
        conversationId: params.conversation._id,
        createdConversation: true,
      },
    })),
    countStopCheck: assign(({ context }) => ({
      stoppedSend: context.stoppedSend && { ...context.stoppedSend, checks: context.stoppedSend.checks + 1 },
    })),
    forgetStoppedSend: assign({ stoppedSend: null }),
    storeNotice: assign((_, params: { error: unknown }) => ({ notice: noticeOf(params.error) })),
    clearAttachment: assign({ attachment: null }),
    storeAttachment: assign((_, params: { file: FileFacts; content: Blob }) => ({
      attachment: { file: params.file, content: params.content, error: null },
    })),
    storeAttachmentError: assign(({ context }, params: { error: unknown }) => ({
      attachment: context.attachment && { ...context.attachment, error: failureOf(params.error) },
    })),
    logFailure: actionNotProvided<{ failure: string; error: unknown }>('logFailure'),
  },
  guards: {
    isSendable: ({ event }) => event.type === 'sender.send' && isSendableText(event.content),
    hasConversation: ({ event }) => event.type === 'sender.send' && event.conversationId !== null,
    hasAnswerSoFar: ({ context }) => (context.outgoing?.answer.trim() ?? '') !== '',
    hasStoppedSend: ({ context }) => context.stoppedSend !== null,
    isStopStored: ({ context }, params: { messages: Message[] }) =>
      storedStop(context.stoppedSend, params.messages) !== null,
    canCheckStopAgain: ({ context }) => (context.stoppedSend?.checks ?? MAX_STOP_CHECKS) < MAX_STOP_CHECKS,
    hasAttachment: ({ context }) => context.attachment !== null,
  },
})

/** product §4 step 1: shown at once; the composer empties. */
export const showOutgoing = senderSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'sender.send') return
  const { change, shown } = startSending(context, event)
  enqueue.assign(change)
  enqueue.sendParent({ type: 'exchange.shown', message: shown })
})

/** Step 2 done: the surface hears of the conversation created for the message. */
export const announceCreated = (conversation: Conversation, tempId: string) =>
  ({ type: 'exchange.created', tempId, conversation }) as const

/** The stopped question and answer as the server stored them: the screen takes their ids. */
export const announceStopFound = (context: SenderContext, messages: Message[]) => {
  const stored = storedStop(context.stoppedSend, messages)
  return context.stoppedSend && stored
    ? ({ type: 'exchange.stopStored', tempId: context.stoppedSend.tempId, stored } as const)
    : null
}

/** product §4 step 5: the temporary message goes away; what was typed goes back into the composer. */
export const dropOutgoing = senderSetup.enqueueActions(({ context, enqueue }) => {
  const { outgoing } = context
  if (!outgoing) return
  enqueue.assign({ outgoing: null, draft: context.draft === '' ? outgoing.content : context.draft })
  enqueue.sendParent({ type: 'exchange.dropped', tempId: outgoing.tempId })
})

/** A conversation created for a message that got no answer is deleted again (product §4 step 5). */
export const discardCreated = senderSetup.enqueueActions(({ context, enqueue }) => {
  const conversationId = createdConversationOf(context)
  if (conversationId) enqueue.sendParent({ type: 'exchange.discarded', conversationId })
})
export const dropUnanswered = [discardCreated, dropOutgoing]

export const appendToken = senderSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'chat.token') return
  const outgoing = outgoingOf(context)
  const answer = outgoing.answer + event.text
  enqueue.assign({ outgoing: { ...outgoing, answer } })
  const at = context.now().toISOString()
  enqueue.sendParent({
    type: 'exchange.grew',
    tempId: outgoing.tempId,
    answer,
    sources: outgoing.sources,
    at,
  })
})

export const storeSources = senderSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'chat.sources') return
  const { outgoing, regenerating } = context
  if (outgoing) enqueue.assign({ outgoing: { ...outgoing, sources: event.sources } })
  const answerId = outgoing ? answerIdOf(outgoing.tempId) : regenerating?.messageId
  if (answerId) enqueue.sendParent({ type: 'exchange.sources', answerId, sources: event.sources })
})

/** product §4 step 4: the surface shows the stored question and answer and moves the conversation up. */
export const storeReply = senderSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'chat.replied') return
  const { tempId } = outgoingOf(context)
  const { conversationId } = outgoingTarget(context)
  enqueue.assign({ outgoing: null })
  enqueue.sendParent({ type: 'exchange.replied', conversationId, tempId, reply: event.reply })
})

export const keepStopped = senderSetup.enqueueActions(({ context, enqueue }) => {
  const outgoing = outgoingOf(context)
  enqueue.assign({ outgoing: null, stoppedSend: stoppedSendOf(outgoing) })
  const { conversationId, tempId, answer } = outgoing
  enqueue.sendParent({
    type: 'exchange.stopped',
    conversationId,
    tempId,
    answer,
    at: context.now().toISOString(),
  })
})

export const storeFileUploaded = senderSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'chat.attachmentUploaded') return
  const { conversationId } = outgoingTarget(context)
  enqueue.sendParent({ type: 'exchange.fileUploaded', conversationId, document: event.document })
  enqueue.assign({ attachment: null })
})

/** The regenerate on its way is over: `how` says how the answer ends on screen. */
export const endRegenerating = (how: 'exchange.restored' | 'exchange.regenerateStopped') =>
  senderSetup.enqueueActions(({ context, enqueue }) => {
    const { regenerating } = context
    if (!regenerating) return
    enqueue.sendParent({ type: how, previous: regenerating.previous })
    enqueue.assign({ regenerating: null })
  })

/** Regenerate: the last answer is written again in place; the old one is kept to come back. */
export const startRegenerating = senderSetup.enqueueActions(({ event, enqueue }) => {
  if (event.type !== 'sender.regenerate') return
  const { conversationId, previous } = event
  enqueue.assign({ regenerating: { conversationId, messageId: previous.id, previous }, notice: null })
  enqueue.sendParent({ type: 'exchange.regenerating', messageId: previous.id })
})

export const growRegenerated = senderSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'chat.token' || !context.regenerating) return
  enqueue.sendParent({
    type: 'exchange.regeneratedGrew',
    messageId: context.regenerating.messageId,
    text: event.text,
  })
})

export const storeRegenerated = senderSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'chat.replied' || !context.regenerating) return
  const { conversationId, messageId } = context.regenerating
  enqueue.sendParent({ type: 'exchange.regenerated', conversationId, messageId, reply: event.reply })
  enqueue.assign({ regenerating: null })
})
