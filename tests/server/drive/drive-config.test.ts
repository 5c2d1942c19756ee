/**
 * The Google variables (server/config.ts): both client variables or neither, the emulator taking
 * every Google origin at Google's own paths, the redirect URI from PUBLIC_URL, the token key.
 */
import { expect, test } from 'vitest'
import { DRIVE_CALLBACK_PATH } from '#contracts/drive.ts'
import { ConfigError, loadConfig } from '#server/config.ts'

const base = { DATABASE_URL: 'memory:', APP_SECRET: 'a'.repeat(40) }
const client = { GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 'secret' }

test('without Google variables, Google Drive is simply not configured', () => {
  expect(loadConfig(base).google).toBeNull()
})

test("a client id and secret talk to Google's own origins, back to PUBLIC_URL's callback", () => {
  const google = loadConfig({ ...base, ...client, PUBLIC_URL: 'https://docs.example.com/' }).google

  expect(google).toMatchObject({
    clientId: client.GOOGLE_CLIENT_ID,
    clientSecret: client.GOOGLE_CLIENT_SECRET,
    redirectUri: `https://docs.example.com${DRIVE_CALLBACK_PATH}`,
    signInRedirectUri: 'https://docs.example.com/api/v1/auth/google/callback',
    endpoints: {
      oauth2AuthBaseUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      oauth2TokenUrl: 'https://oauth2.googleapis.com/token',
      oauth2RevokeUrl: 'https://oauth2.googleapis.com/revoke',
      oauth2FederatedSignonPemCertsUrl: 'https://www.googleapis.com/oauth2/v1/certs',
    },
    driveRootUrl: 'https://www.googleapis.com/',
    tokenKey: base.APP_SECRET,
    emulated: false,
  })
})

test("GOOGLE_EMULATOR_URL takes every Google origin, keeping Google's paths", () => {
  const google = loadConfig({ ...base, ...client, GOOGLE_EMULATOR_URL: 'http://127.0.0.1:4010/' }).google

  expect(google?.endpoints).toEqual({
    oauth2AuthBaseUrl: 'http://127.0.0.1:4010/o/oauth2/v2/auth',
    oauth2TokenUrl: 'http://127.0.0.1:4010/token',
    oauth2RevokeUrl: 'http://127.0.0.1:4010/revoke',
    oauth2FederatedSignonPemCertsUrl: 'http://127.0.0.1:4010/oauth2/v1/certs',
  })
  expect(google?.driveRootUrl).toBe('http://127.0.0.1:4010/')
  expect(google?.emulated).toBe(true)
})

test('one client variable without the other stops the start, naming the missing one', () => {
  expect(() => loadConfig({ ...base, GOOGLE_CLIENT_ID: 'id' })).toThrow(ConfigError)
  expect(() => loadConfig({ ...base, GOOGLE_CLIENT_ID: 'id' })).toThrow(/GOOGLE_CLIENT_SECRET: .*set both/)
  expect(() => loadConfig({ ...base, GOOGLE_CLIENT_SECRET: 's' })).toThrow(/GOOGLE_CLIENT_ID: /)
  expect(() => loadConfig({ ...base, GOOGLE_EMULATOR_URL: 'http://127.0.0.1:4010' })).toThrow(
    /GOOGLE_CLIENT_ID: required with GOOGLE_CLIENT_SECRET when GOOGLE_EMULATOR_URL is set/,
  )
})

test('GOOGLE_EMULATOR_URL must be a URL and GOOGLE_TOKEN_KEY at least 32 characters', () => {
  expect(() => loadConfig({ ...base, ...client, GOOGLE_EMULATOR_URL: 'localhost:4010' })).toThrow(
    /GOOGLE_EMULATOR_URL must be an http:\/\/ or https:\/\/ URL/,
  )
  expect(() => loadConfig({ ...base, ...client, GOOGLE_TOKEN_KEY: 'short' })).toThrow(
    /GOOGLE_TOKEN_KEY must be at least 32 characters/,
  )
  expect(loadConfig({ ...base, ...client, GOOGLE_TOKEN_KEY: 'k'.repeat(32) }).google?.tokenKey).toBe(
    'k'.repeat(32),
  )
})
