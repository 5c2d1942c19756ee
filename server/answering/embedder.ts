/**
 * The client of the embedding model: passages and questions embedded through any
 * OpenAI-compatible /embeddings endpoint (EMBEDDING_MODEL). What is done with the vectors (stored,
 * searched) is the documents' index (documents/index/embedding-service.ts, vectors-repository.ts).
 */
import type OpenAI from 'openai'
import type { EmbeddingConfig } from '../config.ts'
import type { Embedder } from '../documents/index/embedding-service.ts'
import { loadOpenAI } from './llm.ts'

export function createEmbedder(config: EmbeddingConfig): Embedder {
  // The client library loads on first use, as for answers (start-up time, D42).
  let client: OpenAI | undefined
  return {
    model: config.model,
    async embed(texts) {
      const { default: OpenAIClient } = await loadOpenAI()
      client ??= new OpenAIClient({
        baseURL: config.baseUrl,
        apiKey: config.apiKey || 'not-needed',
        timeout: config.timeoutMs,
        // The client retries connection failures, 408/409/429 and 5xx with backoff.
        maxRetries: 3,
      })
      const response = await client.embeddings.create({
        model: config.model,
        input: texts,
        encoding_format: 'float',
      })
      const vectors = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding)
      if (vectors.length !== texts.length) throw new Error('The embedding endpoint returned too few vectors')
      return vectors
    },
  }
}
