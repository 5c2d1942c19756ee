import { expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { buildApp } from '#server/app.ts'
import { NO_DIST_DIR, TEST_PASSWORD, testConfig, uniqueEmail } from '../support/helper.ts'

const { register } = authEndpoints

test('SIGNUP_LIMIT_PER_ADDRESS sets how many sign-ups one address may make in an hour', async () => {
  // buildApp itself, not buildTestApp: the test helper turns every limit off.
  const app = await buildApp(testConfig({ SIGNUP_LIMIT_PER_ADDRESS: '2' }), {
    logger: false,
    distDir: NO_DIST_DIR,
  })
  try {
    const signUp = () =>
      app.inject({
        method: register.method,
        url: register.path,
        remoteAddress: '203.0.113.9',
        payload: { email: uniqueEmail(), password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD },
      })
    expect((await signUp()).statusCode).toBe(201)
    expect((await signUp()).statusCode).toBe(201)
    expect((await signUp()).statusCode).toBe(429)
  } finally {
    await app.close()
  }
})

test('a SIGNUP_LIMIT_PER_ADDRESS that is not a positive whole number stops the server with its name', () => {
  expect(() => testConfig({ SIGNUP_LIMIT_PER_ADDRESS: '0' })).toThrow(/SIGNUP_LIMIT_PER_ADDRESS/)
  expect(() => testConfig({ SIGNUP_LIMIT_PER_ADDRESS: 'lots' })).toThrow(/SIGNUP_LIMIT_PER_ADDRESS/)
})
