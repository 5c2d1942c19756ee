/**
 * What the Drive benchmarks share: a signed-in bench user whose Drive (ada@example.com on the
 * Google emulator) is connected through the real connect flow: its email and the Cookie header to send.
 */
import type { FastifyInstance } from 'fastify'
import { authEndpoints } from '../contracts/auth.ts'
import { completeConsent } from '../tests/fakes/google/consent.ts'
import { ADA } from '../tests/fakes/google/fixtures.ts'

export async function connectedBenchUser(
  app: Pick<FastifyInstance, 'inject'>,
): Promise<{ email: string; cookie: string }> {
  const email = 'bench@example.com'
  const password = 'bench-password'
  await app.inject({
    method: 'POST',
    url: authEndpoints.register.path,
    payload: { email, password, confirmPassword: password },
  })
  const login = await app.inject({
    method: 'POST',
    url: authEndpoints.login.path,
    payload: { email, password },
  })
  const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ')
  const connect = await app.inject({
    method: 'GET',
    url: '/api/v1/google-drive/auth/google',
    headers: { cookie },
  })
  const redirect = await completeConsent(String(connect.headers.location), { account: ADA })
  await app.inject({ method: 'GET', url: `${redirect.pathname}${redirect.search}`, headers: { cookie } })
  return { email, cookie }
}
