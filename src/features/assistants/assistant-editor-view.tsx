/**
 * One assistant's page (issue 36): its form with Save, Duplicate and Delete (asked first in a
 * dialog: its conversations stay), and beside the form what the screen puts there (Try it). Below,
 * the Publish panel and a link to its visitors' conversations (issue 37).
 */
import type { ReactNode } from 'react'
import { Link } from 'wouter'
import type { Assistant } from '#contracts/assistants.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog } from '#src/components/ui/dialog.tsx'
import { SectionHeader } from '#src/components/ui/section-header.tsx'
import { css } from '../../../styled-system/css'
import { AssistantForm } from './assistant-form.tsx'
import { formValuesOf } from './assistant-form-schema.ts'
import { savedPublishing } from './publish-form-schema.ts'
import { PublishPanel } from './publish-panel.tsx'
import type { AssistantEditor } from './use-assistants.ts'

type AssistantEditorViewProps = {
  editor: AssistantEditor
  tryIt: (assistant: Assistant, unsaved: boolean) => ReactNode
}

const backStyle = css({
  fontSize: 'sm',
  color: 'muted',
  textDecoration: 'underline',
  _hover: { color: 'text' },
})

const inboxLinkStyle = css({ display: 'inline-block', mt: '6', color: 'accent', textDecoration: 'underline' })

export function AssistantEditorView({ editor, tryIt }: AssistantEditorViewProps) {
  const { assistant, status } = editor
  if (status === 'loading') return <p className={css({ color: 'muted' })}>Loading the assistant…</p>
  if (status === 'missing' || (status === 'ready' && !assistant))
    return (
      <section>
        <SectionHeader title="Assistant not found" />
        <p>This assistant does not exist, or it was deleted.</p>
        <Link href="/assistants" className={backStyle}>
          Back to your assistants
        </Link>
      </section>
    )
  if (status === 'failed' || !assistant)
    return (
      <section>
        <Alert>{editor.problem}</Alert>
        <Button onClick={editor.reload}>Try again</Button>
      </section>
    )
  return (
    <section>
      <Link href="/assistants" className={backStyle}>
        All assistants
      </Link>
      <SectionHeader title={assistant.name} subtitle={assistant.description || undefined} />
      <AssistantForm
        // A save that changed its fields starts the form afresh from what was saved; a save of
        // the Publish panel leaves what is being typed here alone.
        key={JSON.stringify(formValuesOf(assistant))}
        assistant={assistant}
        models={editor.models}
        documents={editor.documents}
        folders={editor.folders}
        foldersProblem={editor.foldersProblem}
        driveOnServer={editor.driveOnServer}
        saving={editor.saving}
        onSave={editor.save}
        actions={<EditorActions editor={editor} />}
        aside={(unsaved) => tryIt(assistant, unsaved)}
      />
      {editor.confirmingDelete ? <DeleteDialog editor={editor} name={assistant.name} /> : null}
      <PublishPanel key={savedPublishing(assistant)} assistant={assistant} publish={editor.publish} />
      <Link
        href={`/assistants/${encodeURIComponent(assistant._id)}/conversations`}
        className={inboxLinkStyle}
      >
        Visitor conversations
      </Link>
    </section>
  )
}

function EditorActions({ editor }: { editor: AssistantEditor }) {
  return (
    <>
      <Button type="button" variant="secondary" disabled={editor.busy} onClick={editor.duplicate}>
        Duplicate
      </Button>
      <Button type="button" variant="ghost" disabled={editor.busy} onClick={editor.askDelete}>
        Delete
      </Button>
      {editor.notice ? (
        <span role="status" className={css({ fontSize: 'sm', color: 'muted' })}>
          {editor.notice}
        </span>
      ) : null}
      {editor.problem && !editor.confirmingDelete ? <Alert>{editor.problem}</Alert> : null}
    </>
  )
}

function DeleteDialog({ editor, name }: { editor: AssistantEditor; name: string }) {
  return (
    <Dialog
      title={`Delete “${name}”?`}
      onClose={editor.cancelDelete}
      footer={
        <>
          <Button variant="secondary" onClick={editor.cancelDelete} disabled={editor.deleting}>
            Cancel
          </Button>
          <Button variant="danger" onClick={editor.confirmDelete} disabled={editor.deleting}>
            {editor.deleting ? 'Deleting…' : 'Delete assistant'}
          </Button>
        </>
      }
    >
      <p className={css({ fontSize: 'sm' })}>
        The assistant goes for good. Its conversations stay in your history, marked as with a deleted
        assistant.
      </p>
      {editor.problem ? <Alert>{editor.problem}</Alert> : null}
    </Dialog>
  )
}
