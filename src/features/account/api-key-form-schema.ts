/**
 * The "New API key" form as the person fills it (every field a string, as the inputs hold them),
 * parsed into the contract's request: the expiry's choice into days or null, what the key may do
 * into its scopes, "every assistant" into no assistant.
 */
import { z } from 'zod'
import { type ApiKeyScope, type CreateApiKeyRequest, CreateApiKeyRequestSchema } from '#contracts/api-keys.ts'

export const EXPIRY_CHOICES = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
] as const
export const ACCESS_CHOICES = [
  { value: 'chat', label: 'Chat with my assistants and library' },
  { value: 'library', label: 'List, upload and delete documents' },
  { value: 'both', label: 'Both' },
] as const

export type ApiKeyFormValues = { name: string; expiry: string; access: string; assistantId: string }
export const EMPTY_API_KEY_FORM: ApiKeyFormValues = {
  name: '',
  expiry: '90',
  access: 'chat',
  assistantId: '',
}

export const ApiKeyFormSchema = z
  .object({
    name: CreateApiKeyRequestSchema.shape.name,
    expiry: z.enum(['30', '90', '365', 'never'], { error: 'Choose when the key expires' }),
    access: z.enum(['chat', 'library', 'both'], { error: 'Choose what the key may do' }),
    assistantId: z.string(),
  })
  .transform(
    (form): CreateApiKeyRequest => ({
      name: form.name,
      scopes: form.access === 'both' ? ['chat', 'library'] : [form.access as ApiKeyScope],
      expiresInDays: form.expiry === 'never' ? null : (Number(form.expiry) as 30 | 90 | 365),
      // Only a chat key talks to assistants: a library key limited to one would mean nothing.
      ...(form.assistantId && form.access !== 'library' ? { assistantId: form.assistantId } : {}),
    }),
  )
