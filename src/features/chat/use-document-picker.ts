/**
 * Facade for the composer's `#` picker (D70): the picker actor, fed with what is typed at the
 * caret, and the keys it takes while it offers documents. A document chosen takes the place of
 * its `#query` in the text and joins what the chat on screen searches (the chat machine decides
 * whether that is the new chat's draft or the open conversation's scope).
 */
import { useActorRef, useSelector } from '@xstate/react'
import { useEffect, useMemo, useState } from 'react'
import { scopeOf, senderOf } from '#machines/chat/chat-selectors.ts'
import {
  type DocumentPickerContext,
  pickerMatches,
  provideDocumentPickerMachine,
} from '#machines/document-picker/document-picker-machine.ts'
import { hashQueryAt, withoutHashQuery } from '#machines/document-picker/hash-query.ts'
import { createDocumentsApi } from '#src/api/documents.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { ChatActor } from './chat-actor.ts'

export type PickerStatus = 'closed' | 'loading' | 'shown' | 'failed'

const matchesOf = (context: DocumentPickerContext) => pickerMatches(context)
const sameIds = (a: { id: string }[], b: { id: string }[]) =>
  a.length === b.length && a.every((d, i) => d.id === b[i]?.id)

export function useDocumentPicker() {
  const { http, inspect } = useAppDeps()
  const [logic] = useState(() => provideDocumentPickerMachine(createDocumentsApi(http)))
  const picker = useActorRef(logic, { inspect })
  const chat = ChatActor.useActorRef()

  useEffect(() => {
    const subscription = picker.on('picker.chosen', ({ document, at, query }) => {
      const { draft } = senderOf(chat.getSnapshot())
      chat.send({ type: 'chat.type', text: withoutHashQuery(draft, at, query) })
      chat.send({ type: 'chat.scopeAdd', document })
    })
    return () => subscription.unsubscribe()
  }, [picker, chat])

  const intents = useMemo(
    () => ({
      /** What is typed and where the caret is: a `#query` there opens (or filters) the picker. */
      follow(text: string, caret: number) {
        const found = hashQueryAt(text, caret)
        if (!found) {
          picker.send({ type: 'picker.hide' })
          return
        }
        const excluded = scopeOf(chat.getSnapshot())?.documentIds ?? []
        picker.send({ type: 'picker.search', ...found, excluded })
      },
      /**
       * A key pressed in the composer: true when the picker took it (the composer then does
       * nothing else with it). Arrows move, Enter and Tab choose, Escape dismisses, while it
       * offers at least one document.
       */
      takesKey(key: string): boolean {
        const snapshot = picker.getSnapshot()
        if (!snapshot.hasTag('open')) return false
        if (key === 'Escape') {
          picker.send({ type: 'picker.dismiss' })
          return true
        }
        if (pickerMatches(snapshot.context).length === 0) return false
        if (key === 'ArrowDown') picker.send({ type: 'picker.next' })
        else if (key === 'ArrowUp') picker.send({ type: 'picker.previous' })
        else if (key === 'Enter' || key === 'Tab') picker.send({ type: 'picker.choose' })
        else return false
        return true
      },
      choose(documentId: string) {
        picker.send({ type: 'picker.choose', documentId })
      },
      highlight(index: number) {
        picker.send({ type: 'picker.highlight', index })
      },
    }),
    [picker, chat],
  )

  return {
    status: useSelector(picker, (snapshot): PickerStatus => {
      if (!snapshot.hasTag('open')) return 'closed'
      if (snapshot.matches({ open: 'failed' })) return 'failed'
      // The last list is offered while the library is read again.
      return snapshot.hasTag('loading') && snapshot.context.documents === null ? 'loading' : 'shown'
    }),
    matches: useSelector(picker, (snapshot) => matchesOf(snapshot.context), sameIds),
    highlighted: useSelector(picker, (snapshot) => snapshot.context.highlighted),
    query: useSelector(picker, (snapshot) => snapshot.context.query),
    ...intents,
  }
}

export type DocumentPicker = ReturnType<typeof useDocumentPicker>
