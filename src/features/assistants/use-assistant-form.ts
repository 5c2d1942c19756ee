/**
 * The assistant's TanStack Form (issue 36), as use-contract-form.ts binds the account forms:
 * nothing is flagged until the first Save, then each change checks again; only valid, parsed
 * fields reach `onSave`, and after an invalid Save the first invalid field takes the focus.
 */
import { revalidateLogic, useForm } from '@tanstack/react-form'
import { useRef } from 'react'
import type { Assistant, UpdateAssistantRequest } from '#contracts/assistants.ts'
import { AssistantFormSchema, formValuesOf, updateOf } from './assistant-form-schema.ts'

export function useAssistantForm(assistant: Assistant, onSave: (fields: UpdateAssistantRequest) => void) {
  const formRef = useRef<HTMLFormElement>(null)
  const form = useForm({
    defaultValues: formValuesOf(assistant),
    validationLogic: revalidateLogic(),
    validators: { onDynamic: AssistantFormSchema },
    onSubmit: ({ value }) => onSave(updateOf(value)),
    onSubmitInvalid: () => {
      // As use-contract-form.ts: the first invalid field takes the focus once its mark is drawn.
      setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0)
    },
  })
  return { form, formRef }
}

export type AssistantFormApi = ReturnType<typeof useAssistantForm>['form']
