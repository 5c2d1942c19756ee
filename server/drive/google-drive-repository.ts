/**
 * What the Google Drive feature keeps: each user's connection (sealed tokens) and the connect
 * windows under way (OAuth state + PKCE verifier). The Drive files themselves are in the library
 * (library-repository.ts).
 * Values arrive sealed; nothing here sees a token in clear.
 */
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { driveSyncs, googleConnections, googleOauthStates } from '../db/schema.ts'
import { forgetDriveTree } from './drive-folders-repository.ts'

export type ConnectionRecord = {
  userId: string
  googleEmail: string | null
  scope: string
  /** Sealed JSON (server/drive/token-crypto.ts). */
  tokens: string
}

export type OauthStateRecord = { userId: string; codeVerifier: string; expiresAt: Date }

export type GoogleDriveRepository = ReturnType<typeof createGoogleDriveRepository>

export function createGoogleDriveRepository(db: Db) {
  return {
    async findConnection(userId: string): Promise<ConnectionRecord | null> {
      const [row] = await db
        .select({
          userId: googleConnections.userId,
          googleEmail: googleConnections.googleEmail,
          scope: googleConnections.scope,
          tokens: googleConnections.tokens,
        })
        .from(googleConnections)
        .where(eq(googleConnections.userId, userId))
      return row ?? null
    },

    /**
     * Stores a (new) connection. A change-feed token belongs to the Drive it came from, and a
     * reconnect may bring another Google account: the next sync lists the whole Drive again.
     */
    async saveConnection(input: ConnectionRecord): Promise<void> {
      const { userId, ...fields } = input
      await db.transaction(async (tx) => {
        await tx
          .insert(googleConnections)
          .values(input)
          .onConflictDoUpdate({ target: googleConnections.userId, set: { ...fields, updatedAt: sql`now()` } })
        await tx.update(driveSyncs).set({ pageToken: null }).where(eq(driveSyncs.userId, userId))
      })
    },

    /**
     * Forgets the person's sync state (change-feed token, plan) and stops following their folders
     * (D115): after a disconnect, in the library's transaction.
     */
    async forgetSyncState(userId: string): Promise<void> {
      await db.delete(driveSyncs).where(eq(driveSyncs.userId, userId))
      await forgetDriveTree(db, userId)
    },

    /** Replaces the sealed tokens only (after a refresh); false when the connection is gone. */
    async updateTokens(userId: string, tokens: string): Promise<boolean> {
      const rows = await db
        .update(googleConnections)
        .set({ tokens, updatedAt: sql`now()` })
        .where(eq(googleConnections.userId, userId))
        .returning({ userId: googleConnections.userId })
      return rows.length > 0
    },

    /** Everyone with a stored connection (the background sync's round). */
    async connectedUserIds(): Promise<string[]> {
      const rows = await db.select({ userId: googleConnections.userId }).from(googleConnections)
      return rows.map((r) => r.userId)
    },

    async deleteConnection(userId: string): Promise<void> {
      await db.delete(googleConnections).where(eq(googleConnections.userId, userId))
    },

    /**
     * Stores a pending state and keeps only the person's `keep` newest (D37): the oldest
     * are replaced, so opening the connect window again and again cannot grow the table.
     */
    async createState(
      input: OauthStateRecord & { stateHash: string; createdAt: Date },
      keep: number,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(googleOauthStates).values(input)
        const pending = await tx
          .select({ stateHash: googleOauthStates.stateHash })
          .from(googleOauthStates)
          .where(eq(googleOauthStates.userId, input.userId))
          .orderBy(asc(googleOauthStates.createdAt), asc(googleOauthStates.expiresAt))
        const surplus = pending.slice(0, Math.max(0, pending.length - keep)).map((p) => p.stateHash)
        if (surplus.length > 0) {
          await tx.delete(googleOauthStates).where(inArray(googleOauthStates.stateHash, surplus))
        }
      })
    },

    /**
     * Spends a state: deleted in the same statement that reads it, so it works once, and only
     * for its owner (another user's attempt finds nothing and leaves it alone).
     */
    async takeState(stateHash: string, userId: string): Promise<OauthStateRecord | null> {
      const [row] = await db
        .delete(googleOauthStates)
        .where(and(eq(googleOauthStates.stateHash, stateHash), eq(googleOauthStates.userId, userId)))
        .returning({
          userId: googleOauthStates.userId,
          codeVerifier: googleOauthStates.codeVerifier,
          expiresAt: googleOauthStates.expiresAt,
        })
      return row ?? null
    },

    async deleteExpiredStates(now: Date): Promise<void> {
      await db.delete(googleOauthStates).where(lt(googleOauthStates.expiresAt, now))
    },
  }
}
