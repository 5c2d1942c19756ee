/**
 * Sign-in revocations shared between instances on one PostgreSQL server (D39). A logout or
 * a detected refresh-token reuse on one instance is NOTIFY'd; every instance (itself included)
 * marks that sign-in revoked in its session cache at once, so a revoked access cookie is refused
 * everywhere well within a second. While the listening connection is down, cached sign-ins are
 * re-read from the database after DISCONNECTED_RECHECK_MS instead of FAMILY_RECHECK_MS, and after
 * it comes back every cached sign-in is read again (notifications sent meanwhile are lost).
 */
import type { Notifications } from '../db/notifications.ts'
import { FAMILY_RECHECK_MS } from './session-cache.ts'

export const REVOCATIONS_CHANNEL = 'docchat_revocations'
export const DISCONNECTED_RECHECK_MS = 500

export type SharedRevocations = {
  publish: (familyId: string, userId: string) => Promise<void>
  subscribe: (handlers: {
    revoked: (familyId: string, userId: string) => void
    missedSome: () => void
  }) => void
  /** How long a cached live sign-in may be trusted before it is read again. */
  recheckMs: () => number
}

export function createSharedRevocations(notifications: Notifications): SharedRevocations {
  return {
    async publish(familyId, userId) {
      // The revocation is committed already; if the notice cannot be sent, the other instances
      // still re-read it within the recheck interval.
      await notifications
        .publish(REVOCATIONS_CHANNEL, JSON.stringify({ familyId, userId }))
        .catch(() => undefined)
    },
    subscribe({ revoked, missedSome }) {
      notifications.subscribe(REVOCATIONS_CHANNEL, (payload) => {
        const message = parse(payload)
        if (message) revoked(message.familyId, message.userId)
      })
      notifications.onResync(missedSome)
    },
    recheckMs: () => (notifications.connected() ? FAMILY_RECHECK_MS : DISCONNECTED_RECHECK_MS),
  }
}

function parse(payload: string): { familyId: string; userId: string } | undefined {
  try {
    const value: unknown = JSON.parse(payload)
    if (typeof value !== 'object' || value === null) return undefined
    const { familyId, userId } = value as Record<string, unknown>
    return typeof familyId === 'string' && typeof userId === 'string' ? { familyId, userId } : undefined
  } catch {
    return undefined
  }
}
