/**
 * Every field of an assistant (issue 36) in one form, TanStack Form over the contract's rules
 * (assistant-form-schema.ts): nothing is flagged until the first Save, then each change checks
 * again. Save hands the parsed fields to the editor machine; `aside` (Try it) is drawn beside the
 * form and told whether the form holds changes not saved yet.
 */
import type { ReactNode } from 'react'
import type { Assistant, DriveFolder, UpdateAssistantRequest } from '#contracts/assistants.ts'
import type { PickableDocument } from '#machines/assistants/assistant-editor-machine.ts'
import { Button } from '#src/components/ui/button.tsx'
import { TextField } from '#src/components/ui/text-field.tsx'
import { css } from '../../../styled-system/css'
import { AnswerPolicyField, StarterQuestionsField, TextAreaField } from './assistant-fields.tsx'
import { firstMessage, formValuesOf } from './assistant-form-schema.ts'
import { KnowledgePicker } from './knowledge-picker.tsx'
import { ModelSettings } from './model-settings.tsx'
import { type AssistantFormApi, useAssistantForm } from './use-assistant-form.ts'

export type AssistantFormProps = {
  assistant: Assistant
  models: string[]
  documents: PickableDocument[]
  folders: DriveFolder[] | null
  foldersProblem: string | null
  driveOnServer: boolean
  saving: boolean
  onSave: (fields: UpdateAssistantRequest) => void
  /** The page's other controls, beside Save (Duplicate, Delete, what happened). */
  actions: ReactNode
  aside: (unsaved: boolean) => ReactNode
}

const layoutStyle = css({
  display: 'grid',
  gap: '8',
  gridTemplateColumns: { base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) minmax(18rem, 26rem)' },
  alignItems: 'start',
})
const formStyle = css({ display: 'flex', flexDirection: 'column', gap: '5', maxW: '2xl' })

export function AssistantForm(props: AssistantFormProps) {
  const { assistant } = props
  const { form, formRef } = useAssistantForm(assistant, props.onSave)
  const saved = JSON.stringify(formValuesOf(assistant))
  return (
    <div className={layoutStyle}>
      <form
        ref={formRef}
        noValidate
        aria-label="Assistant settings"
        className={formStyle}
        onSubmit={(event) => {
          event.preventDefault()
          void form.handleSubmit()
        }}
      >
        <AboutFields form={form} />
        <form.Field name="knowledge">
          {(field) => (
            <KnowledgePicker
              value={field.state.value}
              onChange={field.handleChange}
              documents={props.documents}
              folders={props.folders}
              foldersProblem={props.foldersProblem}
              driveOnServer={props.driveOnServer}
              missingFolders={assistant.knowledge.folders.filter((f) => f.missing)}
              error={firstMessage(field.state.meta.errors)}
            />
          )}
        </form.Field>
        <BehaviourFields form={form} />
        <ModelSettings form={form} models={props.models} />
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center' })}>
          <Button type="submit" disabled={props.saving}>
            {props.saving ? 'Saving…' : 'Save'}
          </Button>
          {props.actions}
        </div>
      </form>
      <form.Subscribe selector={(state) => JSON.stringify(state.values) !== saved}>
        {(unsaved) => <aside aria-label="Try it">{props.aside(unsaved)}</aside>}
      </form.Subscribe>
    </div>
  )
}

function AboutFields({ form }: { form: AssistantFormApi }) {
  return (
    <>
      <form.Field name="name">
        {(field) => (
          <TextField
            label="Name"
            name={field.name}
            value={field.state.value}
            error={firstMessage(field.state.meta.errors)}
            onChange={(event) => field.handleChange(event.target.value)}
            onBlur={field.handleBlur}
          />
        )}
      </form.Field>
      <form.Field name="description">
        {(field) => (
          <TextField
            label="Description"
            name={field.name}
            value={field.state.value}
            error={firstMessage(field.state.meta.errors)}
            onChange={(event) => field.handleChange(event.target.value)}
            onBlur={field.handleBlur}
          />
        )}
      </form.Field>
      <form.Field name="instructions">
        {(field) => (
          <TextAreaField
            label="Instructions"
            hint="How it should answer: its tone, what to focus on. It always cites its sources."
            rows={6}
            value={field.state.value}
            error={firstMessage(field.state.meta.errors)}
            onChange={(event) => field.handleChange(event.target.value)}
            onBlur={field.handleBlur}
          />
        )}
      </form.Field>
    </>
  )
}

function BehaviourFields({ form }: { form: AssistantFormApi }) {
  return (
    <>
      <form.Field name="starterQuestions" mode="array">
        {(field) => (
          <StarterQuestionsField
            questions={field.state.value}
            errors={field.state.value.map((_, index) =>
              firstMessage(form.getFieldMeta(`starterQuestions[${index}]`)?.errors ?? []),
            )}
            onChange={(index, text) => form.setFieldValue(`starterQuestions[${index}]`, text)}
            onAdd={() => field.pushValue('')}
            onRemove={(index) => field.removeValue(index)}
          />
        )}
      </form.Field>
      <form.Field name="answerPolicy">
        {(field) => <AnswerPolicyField value={field.state.value} onChange={field.handleChange} />}
      </form.Field>
      <form.Field name="fallbackAnswer">
        {(field) => (
          <TextAreaField
            label="Fallback answer"
            hint="What it says, under “Only from its documents”, when its documents do not have the answer."
            rows={3}
            value={field.state.value}
            error={firstMessage(field.state.meta.errors)}
            onChange={(event) => field.handleChange(event.target.value)}
            onBlur={field.handleBlur}
          />
        )}
      </form.Field>
    </>
  )
}
