/**
 * The Publish panel of an assistant's page (issue 37, D121): who may reach the assistant and how
 * much it may spend, in one TanStack Form over the contract's rules (publish-form-schema.ts), saved
 * with the assistant's PATCH by the editor's publish child; then where it is (publish-share.tsx)
 * and the identity secret (identity-secret.tsx).
 */
import { revalidateLogic, useForm } from '@tanstack/react-form'
import type { Assistant } from '#contracts/assistants.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { TextField } from '#src/components/ui/text-field.tsx'
import { css } from '../../../styled-system/css'
import { TextAreaField } from './assistant-fields.tsx'
import { firstMessage } from './assistant-form-schema.ts'
import { IdentitySecret } from './identity-secret.tsx'
import { AllowedSitesField, CheckboxField, SiteRow } from './publish-fields.tsx'
import { PublishFormSchema, publishingOf, publishValuesOf } from './publish-form-schema.ts'
import { PublishShare } from './publish-share.tsx'
import type { Publish } from './use-publish.ts'

const panelStyle = css({ display: 'flex', flexDirection: 'column', gap: '5', maxW: '2xl', mt: '10' })
const headingStyle = css({ fontSize: 'xl', fontWeight: 'semibold' })
const subheadingStyle = css({ fontSize: 'md', fontWeight: 'semibold' })

function usePublishForm(assistant: Assistant, publish: Publish) {
  return useForm({
    defaultValues: publishValuesOf(assistant),
    validationLogic: revalidateLogic(),
    validators: { onDynamic: PublishFormSchema },
    onSubmit: ({ value }) => publish.save(publishingOf(value)),
  })
}

type PublishFormApi = ReturnType<typeof usePublishForm>

export function PublishPanel({ assistant, publish }: { assistant: Assistant; publish: Publish }) {
  const form = usePublishForm(assistant, publish)
  return (
    <section aria-labelledby="publish-heading" className={panelStyle}>
      <h2 id="publish-heading" className={headingStyle}>
        Publish
      </h2>
      <p className={css({ fontSize: 'sm', color: 'muted' })}>
        Put this assistant in front of other people: on a public page of its own, or as a chat on your
        websites. Visitors reach only its answers, never your documents.
      </p>
      <form
        noValidate
        aria-label="Publishing"
        className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}
        onSubmit={(event) => {
          event.preventDefault()
          void form.handleSubmit()
        }}
      >
        <WhereFields form={form} />
        <VisitorFields form={form} />
        <BudgetFields form={form} />
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center' })}>
          <Button type="submit" disabled={publish.saving}>
            {publish.saving ? 'Saving…' : 'Save publishing'}
          </Button>
          {publish.notice ? (
            <span role="status" className={css({ fontSize: 'sm', color: 'muted' })}>
              {publish.notice}
            </span>
          ) : null}
          {publish.problem ? <Alert>{publish.problem}</Alert> : null}
        </div>
      </form>
      <PublishShare assistant={assistant} />
      <IdentitySecret assistant={assistant} publish={publish} />
    </section>
  )
}

function WhereFields({ form }: { form: PublishFormApi }) {
  return (
    <>
      <form.Field name="published">
        {(field) => (
          <CheckboxField
            label="Published"
            hint="Off: nobody but you can reach it, on any page."
            checked={field.state.value}
            onChange={field.handleChange}
          />
        )}
      </form.Field>
      <form.Field name="allowedOrigins" mode="array">
        {(field) => (
          <AllowedSitesField
            count={field.state.value.length}
            listError={firstMessage(field.state.meta.errors)}
            onAdd={() => field.pushValue('')}
          >
            {field.state.value.map((_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the rows are positions in the list; their text is being typed
              <form.Field key={index} name={`allowedOrigins[${index}]`}>
                {(site) => (
                  <SiteRow
                    index={index}
                    value={site.state.value}
                    error={firstMessage(site.state.meta.errors)}
                    onChange={site.handleChange}
                    onRemove={() => field.removeValue(index)}
                  />
                )}
              </form.Field>
            ))}
          </AllowedSitesField>
        )}
      </form.Field>
      <form.Field name="publicPage">
        {(field) => (
          <CheckboxField
            label="Public page"
            hint="A page of its own that anyone with its link can open."
            checked={field.state.value}
            onChange={field.handleChange}
          />
        )}
      </form.Field>
      <form.Field name="allowIndexing">
        {(field) => (
          <CheckboxField
            label="Allow search engines"
            hint="Let search engines list the public page. Off: it asks them not to."
            checked={field.state.value}
            onChange={field.handleChange}
          />
        )}
      </form.Field>
    </>
  )
}

function VisitorFields({ form }: { form: PublishFormApi }) {
  return (
    <>
      <form.Field name="showSourceNames">
        {(field) => (
          <CheckboxField
            label="Show document names to visitors"
            hint="Visitors always see the short passages an answer cites; this adds the documents' names. They never see the files."
            checked={field.state.value}
            onChange={field.handleChange}
          />
        )}
      </form.Field>
      <form.Field name="hideUnverified">
        {(field) => (
          <CheckboxField
            label="Hide sentences the check could not find in the documents"
            hint="Visitors get the answer without them and a short note saying how many were left out. Your inbox still shows every answer whole."
            checked={field.state.value}
            onChange={field.handleChange}
          />
        )}
      </form.Field>
      <form.Field name="busyMessage">
        {(field) => (
          <TextAreaField
            label="Busy sentence"
            hint="What visitors read when a budget is used up or too many are asking at once."
            rows={2}
            value={field.state.value}
            error={firstMessage(field.state.meta.errors)}
            onChange={(event) => field.handleChange(event.target.value)}
            onBlur={field.handleBlur}
          />
        )}
      </form.Field>
      <form.Field name="privacyNotice">
        {(field) => (
          <TextAreaField
            label="Privacy line"
            hint="Shown to visitors above their first message: what happens to what they write."
            rows={2}
            value={field.state.value}
            error={firstMessage(field.state.meta.errors)}
            onChange={(event) => field.handleChange(event.target.value)}
            onBlur={field.handleBlur}
          />
        )}
      </form.Field>
      <form.Field name="requireChallenge">
        {(field) => (
          <CheckboxField
            label="Ask visitors' browsers for a proof of work"
            hint="Before their first question, visitors tick a box while their browser solves a small puzzle, which slows bots down. Nothing leaves our server."
            checked={field.state.value}
            onChange={field.handleChange}
          />
        )}
      </form.Field>
    </>
  )
}

const BUDGETS = [
  ['answersPerDay', 'Answers a day'],
  ['tokensPerDay', 'Tokens a day'],
  ['visitorAnswersPerHour', 'Answers a visitor an hour'],
  ['visitorAnswersPerDay', 'Answers a visitor a day'],
] as const

function BudgetFields({ form }: { form: PublishFormApi }) {
  return (
    <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <legend className={subheadingStyle}>Budgets</legend>
      <p className={css({ fontSize: 'xs', color: 'muted' })}>
        What all visitors together, and each visitor, may spend. Past a budget, visitors read the busy
        sentence until it resets.
      </p>
      <div
        className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' } })}
      >
        {BUDGETS.map(([name, label]) => (
          <form.Field key={name} name={`budgets.${name}`}>
            {(field) => (
              <TextField
                label={label}
                inputMode="numeric"
                value={field.state.value}
                error={firstMessage(field.state.meta.errors)}
                onChange={(event) => field.handleChange(event.target.value)}
                onBlur={field.handleBlur}
              />
            )}
          </form.Field>
        ))}
      </div>
      <form.Field name="retentionDays">
        {(field) => (
          <TextField
            label="Keep visitor conversations (days)"
            inputMode="numeric"
            value={field.state.value}
            error={firstMessage(field.state.meta.errors)}
            onChange={(event) => field.handleChange(event.target.value)}
            onBlur={field.handleBlur}
          />
        )}
      </form.Field>
    </fieldset>
  )
}
