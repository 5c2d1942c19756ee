/** Facades for the mailed-link screens (D76): each runs its machine and hands the view what it reads. */
import { useActorRef, useSelector } from '@xstate/react'
import { useMemo } from 'react'
import { useLocation, useSearch } from 'wouter'
import type { ResetPasswordRequest } from '#contracts/account-links.ts'
import { provideConfirmEmailMachine } from '#machines/password-reset/confirm-email-machine.ts'
import { provideForgotPasswordMachine } from '#machines/password-reset/forgot-password-machine.ts'
import { provideResetPasswordMachine } from '#machines/password-reset/reset-password-machine.ts'
import { createAccountLinksApi } from '#src/api/account-links.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { loginNotices } from '#src/lib/paths.ts'

function useLinksApi() {
  const { http } = useAppDeps()
  return useMemo(() => createAccountLinksApi(http), [http])
}

/** The `token` of the address the mail's link opened. */
export function useLinkToken(): string {
  return new URLSearchParams(useSearch()).get('token') ?? ''
}

export function useForgotPassword() {
  const { inspect } = useAppDeps()
  const linksApi = useLinksApi()
  const actor = useActorRef(provideForgotPasswordMachine({ forgotPassword: linksApi.forgotPassword }), {
    inspect,
  })
  return {
    busy: useSelector(actor, (s) => s.hasTag('busy')),
    sentTo: useSelector(actor, (s) => (s.hasTag('sent') ? s.context.email : null)),
    error: useSelector(actor, (s) => s.context.error),
    send(email: string) {
      actor.send({ type: 'forgot.submit', email })
    },
    again() {
      actor.send({ type: 'forgot.again' })
    },
  }
}

export function useResetPassword() {
  const { inspect } = useAppDeps()
  const linksApi = useLinksApi()
  const [, navigate] = useLocation()
  const actor = useActorRef(
    provideResetPasswordMachine({
      resetPassword: linksApi.resetPassword,
      onReset: () => navigate(loginNotices.passwordReset, { replace: true }),
    }),
    { inspect },
  )
  return {
    busy: useSelector(actor, (s) => s.hasTag('busy')),
    linkRefused: useSelector(actor, (s) => s.hasTag('linkRefused')),
    error: useSelector(actor, (s) => s.context.error),
    reset(request: ResetPasswordRequest) {
      actor.send({ type: 'reset.submit', request })
    },
  }
}

export function useConfirmEmail(token: string) {
  const { inspect } = useAppDeps()
  const linksApi = useLinksApi()
  const actor = useActorRef(provideConfirmEmailMachine({ confirmEmail: linksApi.confirmEmail }), {
    inspect,
    input: { token },
  })
  return {
    busy: useSelector(actor, (s) => s.hasTag('busy')),
    confirmed: useSelector(actor, (s) => s.hasTag('confirmed')),
    error: useSelector(actor, (s) => s.context.error),
  }
}
