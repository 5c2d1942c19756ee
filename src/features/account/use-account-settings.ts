/**
 * Facades for Settings' account cards (D78, D81) and its usage (D126): each runs its machine with the account calls
 * and hands the view what it reads and the intents it may call.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { useMemo } from 'react'
import { useLocation } from 'wouter'
import type { AccountExport, ChangePasswordRequest, DeleteAccountRequest } from '#contracts/account.ts'
import { provideAccountDataMachine } from '#machines/settings/account-data-machine.ts'
import { provideChangePasswordMachine } from '#machines/settings/change-password-machine.ts'
import { provideSessionsMachine } from '#machines/settings/sessions-machine.ts'
import { provideUsageMachine } from '#machines/settings/usage-machine.ts'
import { createAccountApi } from '#src/api/account.ts'
import { createUsageApi } from '#src/api/usage.ts'
import { useSessionEnded } from '#src/features/auth/use-signed-in.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { fromRoot, loginNotices } from '#src/lib/paths.ts'

function useAccountApi() {
  const { http } = useAppDeps()
  return useMemo(() => createAccountApi(http), [http])
}

export function useChangePassword() {
  const api = useAccountApi()
  const { inspect } = useAppDeps()
  const actor = useActorRef(provideChangePasswordMachine({ changePassword: api.changePassword }), { inspect })
  return {
    busy: useSelector(actor, (s) => s.hasTag('busy')),
    error: useSelector(actor, (s) => s.context.error),
    signedOut: useSelector(actor, (s) => (s.hasTag('changed') ? s.context.signedOut : null)),
    /** How many changes worked: the form starts empty again after each. */
    changes: useSelector(actor, (s) => s.context.changes),
    change(request: ChangePasswordRequest) {
      actor.send({ type: 'password.submit', request })
    },
  }
}

export function useSessions() {
  const api = useAccountApi()
  const { inspect } = useAppDeps()
  const actor = useActorRef(provideSessionsMachine(api), { inspect })
  return {
    loading: useSelector(actor, (s) => s.hasTag('loading') && s.context.sessions.length === 0),
    busy: useSelector(actor, (s) => s.hasTag('busy') || s.hasTag('loading')),
    failed: useSelector(actor, (s) => s.value === 'failed'),
    sessions: useSelector(actor, (s) => s.context.sessions),
    error: useSelector(actor, (s) => s.context.error),
    revoke(id: string) {
      actor.send({ type: 'sessions.revoke', id })
    },
    revokeOthers() {
      actor.send({ type: 'sessions.revokeOthers' })
    },
    retry() {
      actor.send({ type: 'sessions.retry' })
    },
  }
}

/** Settings → Usage (D126): the last 30 days and this month, read once when Settings opens. */
export function useUsage() {
  const { http, inspect } = useAppDeps()
  const api = useMemo(() => createUsageApi(http), [http])
  const actor = useActorRef(provideUsageMachine(api), { inspect })
  return {
    loading: useSelector(actor, (s) => s.hasTag('loading')),
    failed: useSelector(actor, (s) => s.matches('failed')),
    report: useSelector(actor, (s) => s.context.report),
    error: useSelector(actor, (s) => s.context.error),
    retry() {
      actor.send({ type: 'usage.retry' })
    },
  }
}

/** Hands an export to the browser as a file download. */
function saveFile(data: AccountExport) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }))
  const link = document.createElement('a')
  link.href = url
  link.download = `docchat-export-${data.exportedAt.slice(0, 10)}.json`
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

export function useAccountData() {
  const api = useAccountApi()
  const { inspect } = useAppDeps()
  const ended = useSessionEnded()
  const [, navigate] = useLocation()
  const actor = useActorRef(
    provideAccountDataMachine({
      ...api,
      saveFile,
      onDeleted() {
        ended()
        navigate(fromRoot(loginNotices.accountDeleted), { replace: true })
      },
    }),
    { inspect },
  )
  return {
    account: useSelector(actor, (s) => s.context.account),
    failed: useSelector(actor, (s) => s.value === 'failed'),
    exporting: useSelector(actor, (s) => s.hasTag('exporting')),
    deleting: useSelector(actor, (s) => s.hasTag('deleting')),
    error: useSelector(actor, (s) => s.context.error),
    exportData() {
      actor.send({ type: 'account.export' })
    },
    deleteAccount(confirmation: DeleteAccountRequest) {
      actor.send({ type: 'account.delete', confirmation })
    },
    retry() {
      actor.send({ type: 'account.retry' })
    },
  }
}
