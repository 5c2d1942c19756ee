/**
 * Provider states for the owner's publishing calls (issue 37), built through the real calls: the
 * assistant published with PATCH, then one anonymous visitor asking it through the visitor's
 * stream. Its knowledge is empty, so the answer is its fallback: an "unanswered" conversation.
 */
import type { App } from '#server/app.ts'
import { askPublic, doneOf, patchAssistantOk } from '#tests/server/support/publishing-helpers.ts'

export const VISITOR_QUESTION = 'How many days of leave do I get?'

/** Alice's only assistant, published, with one visitor conversation: their ids for the request. */
export async function publishedAssistantAVisitorAsked(
  app: App,
  cookie: string,
  userId: string,
): Promise<{ assistantId: string; conversationId: string }> {
  for (const old of await app.assistants.list({ id: userId }))
    await app.assistants.remove({ id: userId }, old._id)
  const created = await app.assistants.create(
    { id: userId },
    { name: 'HR bot', fallbackAnswer: 'Not in my documents.' },
  )
  const published = await patchAssistantOk(app, cookie, created._id, { published: true })
  const asked = await askPublic(app, published.publicId ?? '', { content: VISITOR_QUESTION })
  if (asked.statusCode !== 200) throw new Error(`the visitor's question answered ${asked.statusCode}`)
  return { assistantId: created._id, conversationId: doneOf(asked).conversationId }
}
