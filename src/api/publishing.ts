/**
 * One client function per owner's publishing call (issue 37): the identity secret and the inbox of
 * visitor conversations; the deps injected into machines/assistants' publish and inbox machines.
 * Publishing settings themselves go with the assistant's PATCH (src/api/assistants.ts).
 */
import { fillPath } from '#contracts/endpoint.ts'
import { publishingEndpoints } from '#contracts/publishing.ts'
import type { Http } from './client.ts'

export type InboxFilter = 'all' | 'unanswered'

export function createPublishingApi(http: Http) {
  return {
    /** Makes or rotates the secret; the answer is the only time it is shown. */
    async rotateIdentitySecret(id: string): Promise<string> {
      return (await http(publishingEndpoints.rotateIdentitySecret, { params: { id } })).data.secret
    },
    async inbox(id: string, filter: InboxFilter, cursor: string | null) {
      // Only the keys given: URLSearchParams would send an absent one as "undefined".
      const query = cursor === null ? { filter } : { filter, cursor }
      return (await http(publishingEndpoints.inbox, { params: { id }, query })).data
    },
    async inboxConversation(id: string, conversationId: string) {
      return (await http(publishingEndpoints.inboxConversation, { params: { id, conversationId } })).data
    },
    async deleteInboxConversations(id: string): Promise<number> {
      return (await http(publishingEndpoints.deleteInboxConversations, { params: { id } })).data.deleted
    },
    async deleteInboxConversation(id: string, conversationId: string): Promise<void> {
      await http(publishingEndpoints.deleteInboxConversation, { params: { id, conversationId } })
    },
  }
}

export type PublishingApi = ReturnType<typeof createPublishingApi>

/** The inbox as CSV: the browser downloads it as it is (a link), never through the JSON client. */
export function inboxCsvUrl(id: string, filter: InboxFilter): string {
  const search = new URLSearchParams({ filter, format: 'csv' })
  return `${fillPath(publishingEndpoints.inbox.path, { id })}?${search}`
}
