/**
 * The published assistant the citation-check tests beyond the app ask (D135, D140): one owner,
 * a two-passage allowances document, an assistant over it, published.
 */
import type { App } from '#server/app.ts'
import { createAssistantOk } from './assistant-helpers.ts'
import { newPerson, type Person } from './drive-helpers.ts'
import { addLibraryDocument } from './library-helpers.ts'
import { patchAssistantOk } from './publishing-helpers.ts'

export const QUESTION = 'What allowance do I get?'
export const HOTEL = 'The hotel allowance is 120 euros a night.'
export const MEALS = 'The daily meal allowance abroad is 45 euros per person.'

export async function publishedAllowancesBot(
  app: App,
  label: string,
): Promise<{ owner: Person; bot: { id: string; publicId: string } }> {
  const owner = await newPerson(app, label)
  const allowances = await addLibraryDocument(app, owner.id, { name: 'Allowances.pdf', text: [HOTEL, MEALS] })
  const created = await createAssistantOk(app, owner.cookie, {
    name: 'Allowances bot',
    knowledge: { documentIds: [allowances], folderIds: [] },
  })
  const published = await patchAssistantOk(app, owner.cookie, created._id, { published: true })
  return { owner, bot: { id: created._id, publicId: published.publicId ?? '' } }
}
