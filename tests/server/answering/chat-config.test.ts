import { expect, test } from 'vitest'
import {
  DEFAULT_LLM_CONCURRENCY_PER_USER,
  DEFAULT_LLM_MAX_TOKENS,
  DEFAULT_LLM_TIMEOUT_MS,
  loadConfig,
} from '#server/config.ts'

const base = { DATABASE_URL: 'memory:' }

test('with no LLM_BASE_URL there is no model: answers are extractive', () => {
  expect(loadConfig(base).llm).toBeNull()
  expect(loadConfig({ ...base, LLM_BASE_URL: ' ', LLM_MODEL: '' }).llm).toBeNull()
})

test('LLM_BASE_URL and LLM_MODEL configure a model; the key is optional, the timeout defaults to 60 s, an answer to 2,048 tokens', () => {
  expect(
    loadConfig({ ...base, LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'llama3.1' }).llm,
  ).toEqual({
    baseUrl: 'http://127.0.0.1:11434/v1',
    apiKey: '',
    model: 'llama3.1',
    timeoutMs: DEFAULT_LLM_TIMEOUT_MS,
    maxTokens: DEFAULT_LLM_MAX_TOKENS,
    // The models an assistant may choose (LLM_MODELS, issue 36): none unless the operator lists them.
    models: [],
  })
  expect(DEFAULT_LLM_TIMEOUT_MS).toBe(60_000)
  expect(DEFAULT_LLM_MAX_TOKENS).toBe(2048)
  expect(
    loadConfig({
      ...base,
      LLM_BASE_URL: 'https://api.openai.com/v1',
      LLM_API_KEY: 'sk-123',
      LLM_MODEL: 'gpt-4o-mini',
      LLM_TIMEOUT_MS: '15000',
      LLM_MAX_TOKENS: '512',
    }).llm,
  ).toEqual({
    baseUrl: 'https://api.openai.com/v1',
    apiKey: 'sk-123',
    model: 'gpt-4o-mini',
    timeoutMs: 15_000,
    maxTokens: 512,
    models: [],
  })
})

test('LLM_CONCURRENCY_PER_USER bounds the answers one person has written at once: 2 unless set', () => {
  expect(loadConfig(base).llmConcurrencyPerUser).toBe(DEFAULT_LLM_CONCURRENCY_PER_USER)
  expect(DEFAULT_LLM_CONCURRENCY_PER_USER).toBe(2)
  expect(loadConfig({ ...base, LLM_CONCURRENCY_PER_USER: '5' }).llmConcurrencyPerUser).toBe(5)
})

test.each([
  [{ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }, /LLM_MODEL: required when LLM_BASE_URL is set/],
  [{ LLM_MODEL: 'gpt-4o-mini' }, /LLM_BASE_URL: required when LLM_MODEL, LLM_MODELS or LLM_API_KEY is set/],
  [{ LLM_API_KEY: 'sk-123' }, /LLM_BASE_URL: required when LLM_MODEL, LLM_MODELS or LLM_API_KEY is set/],
  [{ LLM_BASE_URL: 'not a url', LLM_MODEL: 'm' }, /LLM_BASE_URL: LLM_BASE_URL must be an http/],
  [{ LLM_BASE_URL: 'ftp://x', LLM_MODEL: 'm' }, /LLM_BASE_URL: LLM_BASE_URL must be an http/],
  [{ LLM_TIMEOUT_MS: 'soon' }, /LLM_TIMEOUT_MS: LLM_TIMEOUT_MS must be a number/],
  [{ LLM_TIMEOUT_MS: '0' }, /LLM_TIMEOUT_MS: LLM_TIMEOUT_MS must be positive/],
  [{ LLM_TIMEOUT_MS: '1.5' }, /LLM_TIMEOUT_MS: LLM_TIMEOUT_MS must be a whole number/],
  [{ LLM_MAX_TOKENS: 'lots' }, /LLM_MAX_TOKENS: LLM_MAX_TOKENS must be a number/],
  [{ LLM_MAX_TOKENS: '10' }, /LLM_MAX_TOKENS: LLM_MAX_TOKENS must be at least 64 tokens/],
  [{ LLM_MAX_TOKENS: '100000' }, /LLM_MAX_TOKENS: LLM_MAX_TOKENS must be at most 32768 tokens/],
  [
    { LLM_CONCURRENCY_PER_USER: '0' },
    /LLM_CONCURRENCY_PER_USER: LLM_CONCURRENCY_PER_USER must be at least 1/,
  ],
  [{ LLM_CONCURRENCY_PER_USER: '2.5' }, /LLM_CONCURRENCY_PER_USER: LLM_CONCURRENCY_PER_USER must be a whole/],
])('%j stops the start with a message naming the variable', (env, message) => {
  expect(() => loadConfig({ ...base, ...env })).toThrow(message)
})
