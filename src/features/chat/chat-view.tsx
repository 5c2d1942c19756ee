import { type ComponentProps, type ReactNode, useCallback, useMemo, useRef } from 'react'
import type { Scope, Source } from '#contracts/chat.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { ChatIcon } from '#src/components/ui/dashboard-icons.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { PHONE_QUERY, useMediaQuery } from '#src/components/ui/use-media-query.ts'
import { css, cx } from '../../../styled-system/css'
import { assistantLabel } from './assistant-label.ts'
import { ChatComposer, type ComposerHandle } from './chat-composer.tsx'
import { CitationPanel } from './citation-panel.tsx'
import { ConversationBar } from './conversation-bar.tsx'
import { ConversationFiles } from './conversation-files.tsx'
import { ConversationScope } from './conversation-scope.tsx'
import { ConversationTitle } from './conversation-title.tsx'
import { FirstRun } from './first-run.tsx'
import { MessageList } from './message-list.tsx'
import { MissingConversation } from './missing-conversation.tsx'
import { ScopeChips } from './scope-chips.tsx'
import { useConversation, useConversationMessages } from './use-chat.ts'
import { useDocumentPicker } from './use-document-picker.ts'
import { useUpload } from './use-upload.ts'

const layoutStyle = css({ display: 'grid', gap: '6', h: 'full', gridTemplateColumns: 'minmax(0, 1fr)' })
// The passage gets a column of its own beside the conversation; on a phone it is a sheet instead.
const withPanelStyle = css({ md: { gridTemplateColumns: 'minmax(0, 1fr) minmax(16rem, 24rem)' } })

/**
 * product §2 Chat view: the conversation (or its empty state) under its title and what it searches
 * (D70), the chosen documents as chips over the composer with its `#` picker, and beside them the
 * passage a citation opened (D87). `titleActions` are the screen's controls for the open
 * conversation (Export, Share); on a phone the header is one bar and they are `menuItems` in its
 * menu instead (issue 40, item 3).
 */
const columnStyle = css({
  display: 'flex',
  flexDirection: 'column',
  minH: '0',
  w: 'full',
  maxW: '3xl',
  mx: 'auto',
})

const emptyStyle = css({
  flex: '1',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '2',
  overflowY: 'auto',
  pb: '4',
})

/** A new chat: what it is for, and the first-run questions (D86). */
function NoMessagesYet({ onAsk, scope }: { onAsk: (text: string) => void; scope: Scope | null }) {
  return (
    <div className={emptyStyle}>
      <EmptyState icon={<ChatIcon size={24} />} title="Start a conversation">
        Ask questions about your documents or start a general conversation. I'm here to help!
      </EmptyState>
      <FirstRun onAsk={onAsk} scope={scope} />
    </div>
  )
}

type ChatViewProps = { titleActions?: ReactNode; menuItems?: ReactNode }

export function ChatView({ titleActions, menuItems }: ChatViewProps = {}) {
  const chat = useConversation()
  const { empty, loading, awaitingReply, ratingMessageIds, rate, openSource } = chat
  const upload = useUpload()
  const picker = useDocumentPicker()
  const composer = useRef<ComposerHandle>(null)
  const returnFocus = useReturnFocus()
  const { showSource, closeSource } = chat
  const onShowSource = useCallback(
    (messageId: string, source: Source, opener: HTMLElement) => {
      returnFocus.remember(opener)
      showSource(messageId, source.chunkId)
    },
    [returnFocus, showSource],
  )
  if (chat.missing) return <MissingConversation />
  return (
    <section aria-label="Chat with Docs" className={cx(layoutStyle, openSource ? withPanelStyle : undefined)}>
      <div className={columnStyle}>
        <ConversationHeader
          chat={chat}
          onChoose={() => composer.current?.startPicking()}
          titleActions={titleActions}
          menuItems={menuItems}
        />
        <ConversationFiles files={chat.files} />
        {empty && !loading ? (
          <NoMessagesYet onAsk={chat.send} scope={chat.scope} />
        ) : (
          <ConversationMessages
            awaitingReply={awaitingReply}
            ratingMessageIds={ratingMessageIds}
            onRate={rate}
            regenerableId={chat.regenerableId}
            onRegenerate={chat.regenerate}
            onShowSource={onShowSource}
            busy={loading}
            switchingVersionIds={chat.switchingVersionIds}
            onShowVersion={chat.showVersion}
            reasonAsk={chat.reasonAsk}
            onExplainDislike={chat.explainDislike}
            onSkipReason={chat.skipReason}
          />
        )}
        {chat.notice === null ? null : <Alert>{chat.notice}</Alert>}
        <ScopeChips
          scope={chat.scope}
          saving={chat.savingScope}
          notice={chat.scopeNotice}
          onRemove={chat.removeDocument}
        />
        <ChatComposer
          disabled={loading}
          draft={chat.draft}
          onDraft={chat.type}
          onSend={chat.send}
          onAttach={() => upload.open('chat')}
          streaming={chat.streaming}
          onStop={chat.stop}
          attachment={chat.attachment && { name: chat.attachment.file.name, error: chat.attachment.error }}
          attaching={chat.attaching}
          onDetach={chat.detach}
          picker={picker}
          handle={composer}
        />
      </div>
      {openSource ? (
        <CitationPanel
          // Another passage is another panel: the focus moves into it again.
          key={`${openSource.message.id}:${openSource.source.chunkId}`}
          source={openSource.source}
          answer={openSource.message.content}
          checks={openSource.message.checks}
          onClose={() => {
            closeSource()
            returnFocus.restore(openSource.message.id, openSource.source)
          }}
        />
      ) : null}
    </section>
  )
}

/**
 * The conversation's messages, read here and not in ChatView: each token of an answer draws the
 * list again (its earlier bubbles memoised), not the header, the chips and the composer.
 */
function ConversationMessages(props: Omit<ComponentProps<typeof MessageList>, 'messages'>) {
  const messages = useConversationMessages()
  return <MessageList messages={messages} {...props} />
}

type ConversationHeaderProps = ChatViewProps & {
  chat: ReturnType<typeof useConversation>
  /** Opens the composer's document picker. */
  onChoose: () => void
}

/** Above the messages: the title's row and the scope's line, or on a phone one bar (issue 40, item 3). */
function ConversationHeader({ chat, onChoose, titleActions, menuItems }: ConversationHeaderProps) {
  const phone = useMediaQuery(PHONE_QUERY)
  return (
    <>
      {phone ? (
        <ConversationBar
          title={chat.title}
          onRename={chat.rename}
          scope={chat.scope}
          assistant={chat.assistant?.name ?? null}
          saving={chat.savingScope}
          onChoose={onChoose}
          onSearchEverything={chat.searchEverything}
          menuItems={menuItems}
        />
      ) : chat.title === null ? null : (
        <ConversationTitle title={chat.title} onRename={chat.rename} actions={titleActions} />
      )}
      {chat.assistant ? (
        <p className={css({ fontSize: 'sm', color: 'muted', pb: '2' })}>{assistantLabel(chat.assistant)}</p>
      ) : null}
      {phone ? null : (
        <ConversationScope
          scope={chat.scope}
          assistant={chat.assistant?.name ?? null}
          saving={chat.savingScope}
          onChoose={onChoose}
          onSearchEverything={chat.searchEverything}
        />
      )}
    </>
  )
}

/**
 * Where the focus goes when a passage closes: the marker (or source) that opened it. An answer
 * that took its stored id meanwhile was drawn again: its marker is found again in it.
 */
function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null)
  return useMemo(
    () => ({
      remember(element: HTMLElement) {
        opener.current = element
      },
      restore(messageId: string, source: Source) {
        const was = opener.current
        opener.current = null
        if (was?.isConnected) return was.focus()
        const marker = source.citation
          ? `[data-citation="${source.citation}"]`
          : `[data-source="${source.chunkId}"]`
        document.querySelector<HTMLElement>(`[data-message-id="${messageId}"] ${marker}`)?.focus()
      },
    }),
    [],
  )
}
