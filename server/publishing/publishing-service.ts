/**
 * An assistant's publication (issue 37, D117): the settings its owner edits with the assistant
 * (this service is the assistants' PublishingPort), the identity secret (made or rotated, shown
 * once, sealed at rest), and the published assistant a public id names. Publishing is off until
 * the owner turns it on; the first publish makes the public id, 128 random bits, kept for good.
 */
import { randomBytes } from 'node:crypto'
import type { Publishing, PublishingRequest } from '#contracts/publishing.ts'
import { type PublishingPort, UNPUBLISHED } from '../assistants/assistants-service.ts'
import type { TokenCipher } from '../drive/token-crypto.ts'
import { AssistantUnavailable } from './publishing-errors.ts'
import type {
  PublicationSettings,
  PublishedAssistant,
  PublishingRepository,
} from './publishing-repository.ts'

/** Random bytes in a public id: 128 bits, 22 base64url characters. */
export const PUBLIC_ID_BYTES = 16
/** Random bytes in an identity secret: 256 bits, as HS256 wants at least. */
export const IDENTITY_SECRET_BYTES = 32

const { publicId: _p, hasIdentitySecret: _h, ...DEFAULT_SETTINGS } = UNPUBLISHED

type Deps = {
  rows: PublishingRepository
  /** Seals identity secrets at rest (APP_SECRET's own key for them, D117). */
  cipher: TokenCipher
  now: () => Date
  /** Is this assistant the person's? (the assistants' own check: 404 otherwise). */
  checkOwner: (userId: string, assistantId: string) => Promise<void>
}

export class PublishingService implements PublishingPort {
  readonly #rows: PublishingRepository
  readonly #cipher: TokenCipher
  readonly #now: () => Date
  readonly #checkOwner: Deps['checkOwner']

  constructor({ rows, cipher, now, checkOwner }: Deps) {
    this.#rows = rows
    this.#cipher = cipher
    this.#now = now
    this.#checkOwner = checkOwner
  }

  async view(userId: string, assistantId: string): Promise<Publishing> {
    const row = await this.#rows.findPublication(userId, assistantId)
    if (!row) return UNPUBLISHED
    const { sealedSecret, ...rest } = row
    return { ...rest, hasIdentitySecret: sealedSecret !== null }
  }

  async apply(userId: string, assistantId: string, changes: Partial<PublishingRequest>): Promise<void> {
    await this.#rows.savePublication({
      userId,
      assistantId,
      defaults: DEFAULT_SETTINGS,
      changes: changes as Partial<PublicationSettings>,
      publicId: changes.published ? randomBytes(PUBLIC_ID_BYTES).toString('base64url') : null,
      now: this.#now(),
    })
  }

  /** A new identity secret for the assistant, returned this once; the old one stops verifying. */
  async rotateIdentitySecret(user: { id: string }, assistantId: string): Promise<{ secret: string }> {
    await this.#checkOwner(user.id, assistantId)
    const secret = randomBytes(IDENTITY_SECRET_BYTES).toString('base64url')
    await this.#rows.saveIdentitySecret({
      userId: user.id,
      assistantId,
      defaults: DEFAULT_SETTINGS,
      sealed: this.#cipher.encrypt(secret, assistantId),
      now: this.#now(),
    })
    return { secret }
  }

  /** The assistant `publicId` names, published now; AssistantUnavailable for every other case alike. */
  async published(publicId: string): Promise<PublishedAssistant> {
    const found = await this.#rows.findPublished(publicId)
    if (!found) throw new AssistantUnavailable()
    return found
  }

  /** The identity secret in clear, to verify a visitor's token with; null when none was made (or it no longer opens). */
  identitySecret(assistant: PublishedAssistant): string | null {
    if (!assistant.sealedSecret) return null
    try {
      return this.#cipher.decrypt(assistant.sealedSecret, assistant.assistantId)
    } catch {
      return null
    }
  }
}
