/**
 * What the Drive benchmarks share: a signed-in person, and a signed-in bench user whose Drive
 * (ada@example.com on the Google emulator) is connected through the real connect flow: its email
 * and the Cookie header to send.
 */
import type { FastifyInstance } from 'fastify'
import { authEndpoints } from '../contracts/auth.ts'
import { completeConsent } from '../tests/fakes/google/consent.ts'
import { ADA } from '../tests/fakes/google/fixtures.ts'

/** A person with an account, signed in: the Cookie header of their session. */
export async function signedInBenchUser(
  app: Pick<FastifyInstance, 'inject'>,
  email: string,
): Promise<string> {
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
  if (login.statusCode !== 200) throw new Error(`sign-in: ${login.statusCode}`)
  return login.cookies.map((c) => `${c.name}=${c.value}`).join('; ')
}

export async function connectedBenchUser(
  app: Pick<FastifyInstance, 'inject'>,
): Promise<{ email: string; cookie: string }> {
  const email = 'bench@example.com'
  const cookie = await signedInBenchUser(app, email)
  const connect = await app.inject({
    method: 'GET',
    url: '/api/v1/google-drive/auth/google',
    headers: { cookie },
  })
  const redirect = await completeConsent(String(connect.headers.location), { account: ADA })
  await app.inject({ method: 'GET', url: `${redirect.pathname}${redirect.search}`, headers: { cookie } })
  return { email, cookie }
}
