/**
 * The stored read-only links of conversations (`chat_shares`, D73): one row per shared
 * conversation with its snapshot, the link's nonce and the SHA-256 of its token. Every write names
 * the owner; a lookup is one indexed read by the token's hash.
 */
import { and, desc, eq } from 'drizzle-orm'
import type { SharedConversation } from '#contracts/sharing.ts'
import type { Db } from '../db/database.ts'
import { chatConversations, chatShares } from '../db/schema.ts'

export type ShareRow = { conversationId: string; title: string; nonce: string; sharedAt: Date }

export type SharesRepository = ReturnType<typeof createSharesRepository>

export function createSharesRepository(db: Db) {
  return {
    /**
     * Stores the snapshot as the conversation's share, or replaces the snapshot of the share it
     * has (keeping its nonce, so its link): the nonce the link is made from.
     */
    async save(share: {
      conversationId: string
      userId: string
      nonce: string
      tokenHash: string
      snapshot: SharedConversation
      at: Date
    }): Promise<string> {
      const { snapshot, at } = share
      const [row] = await db
        .insert(chatShares)
        .values({
          conversationId: share.conversationId,
          userId: share.userId,
          nonce: share.nonce,
          tokenHash: share.tokenHash,
          snapshot,
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoUpdate({ target: chatShares.conversationId, set: { snapshot, updatedAt: at } })
        .returning({ nonce: chatShares.nonce })
      if (!row) throw new Error('Storing a share returned no row')
      return row.nonce
    },

    async remove(userId: string, conversationId: string): Promise<void> {
      await db
        .delete(chatShares)
        .where(and(eq(chatShares.conversationId, conversationId), eq(chatShares.userId, userId)))
    },

    /** Every link the person made ends (an account taken back by its owner, D99). */
    async removeAll(userId: string): Promise<number> {
      const rows = await db
        .delete(chatShares)
        .where(eq(chatShares.userId, userId))
        .returning({ conversationId: chatShares.conversationId })
      return rows.length
    },

    /** The person's shares, most recently shared first. */
    async list(userId: string): Promise<ShareRow[]> {
      return db
        .select({
          conversationId: chatShares.conversationId,
          title: chatConversations.title,
          nonce: chatShares.nonce,
          sharedAt: chatShares.updatedAt,
        })
        .from(chatShares)
        .innerJoin(chatConversations, eq(chatConversations.id, chatShares.conversationId))
        .where(eq(chatShares.userId, userId))
        .orderBy(desc(chatShares.updatedAt), desc(chatShares.conversationId))
    },

    async snapshotByHash(tokenHash: string): Promise<SharedConversation | null> {
      const [row] = await db
        .select({ snapshot: chatShares.snapshot })
        .from(chatShares)
        .where(eq(chatShares.tokenHash, tokenHash))
      return row ? (row.snapshot as SharedConversation) : null
    },
  }
}
