/**
 * Provider states for the publishing calls (issue 37), built through the real calls: alice's
 * assistant published with PATCH, then a visitor asking it through the visitor's stream (an
 * anonymous one by their cookie, or a host site's signed-in user by a token signed with the
 * assistant's identity secret). Its knowledge is empty, so the answer is its fallback: an
 * "unanswered" conversation with no snippets and nothing to check.
 */
import { fillPath } from '#contracts/endpoint.ts'
import { publishingEndpoints } from '#contracts/publishing.ts'
import type { App } from '#server/app.ts'
import { call } from '#tests/server/support/chat-helpers.ts'
import {
  askPublic,
  doneOf,
  patchAssistantOk,
  signUserToken,
  visitorCookie,
} from '#tests/server/support/publishing-helpers.ts'

export const VISITOR_QUESTION = 'How many days of leave do I get?'

/** Alice's only assistant, made afresh and published: its id and public id. */
export async function publishedAssistant(
  app: App,
  cookie: string,
  userId: string,
): Promise<{ assistantId: string; publicId: string }> {
  for (const old of await app.assistants.list({ id: userId }))
    await app.assistants.remove({ id: userId }, old._id)
  const created = await app.assistants.create(
    { id: userId },
    { name: 'HR bot', fallbackAnswer: 'Not in my documents.' },
  )
  const published = await patchAssistantOk(app, cookie, created._id, { published: true })
  if (!published.publicId) throw new Error('the published assistant has no public id')
  return { assistantId: created._id, publicId: published.publicId }
}

/** A visitor's question answered; the response, for its `done` and the visitor's cookie. */
async function asked(app: App, publicId: string, body: Record<string, unknown>) {
  const response = await askPublic(app, publicId, { content: VISITOR_QUESTION, ...body })
  if (response.statusCode !== 200) throw new Error(`the visitor's question answered ${response.statusCode}`)
  return response
}

/** Alice's only assistant, published, with one visitor conversation: their ids for the request. */
export async function publishedAssistantAVisitorAsked(
  app: App,
  cookie: string,
  userId: string,
): Promise<{ assistantId: string; conversationId: string }> {
  const { assistantId, publicId } = await publishedAssistant(app, cookie, userId)
  return { assistantId, conversationId: doneOf(await asked(app, publicId, {})).conversationId }
}

/**
 * An anonymous visitor asked alice's published assistant: the public id and the answer's id for
 * the request, and the visitor's cookie, which the browser sends back.
 */
export async function aVisitorAsked(app: App, cookie: string, userId: string) {
  const { publicId } = await publishedAssistant(app, cookie, userId)
  const response = await asked(app, publicId, {})
  return { publicId, messageId: doneOf(response).aiMessage._id, visitorCookie: visitorCookie(response) }
}

/** A host site's signed-in user asked alice's published assistant: the public id and their token. */
export async function aSignedVisitorAsked(app: App, cookie: string, userId: string, now: Date) {
  const { assistantId, publicId } = await publishedAssistant(app, cookie, userId)
  const rotated = await call(app, publishingEndpoints.rotateIdentitySecret, {
    cookie,
    params: { id: assistantId },
  })
  if (rotated.statusCode !== 200)
    throw new Error(
      `${fillPath(publishingEndpoints.rotateIdentitySecret.path, { id: assistantId })} answered ${rotated.statusCode}`,
    )
  const secret: string = rotated.json().data.secret
  const userToken = await signUserToken(secret, { sub: 'host-user-7', aud: publicId, name: 'Dana' }, { now })
  await asked(app, publicId, { userToken })
  return { publicId, userToken }
}
