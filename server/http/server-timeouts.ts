/**
 * How long a connection may take over each part of an exchange (D32). Node's defaults let
 * a client that never finishes its headers or body hold a socket for minutes (Fastify turns
 * Node's request timeout off), and ~1,000 such clients exhausted the file descriptors.
 *
 * - headersTimeout: from the first byte of a request to the end of its headers;
 * - requestTimeout: from the first byte to the end of the body (receiving only: a long streamed
 *   response is not cut by it);
 * - keepAliveTimeout: how long an idle kept-alive connection waits for its next request;
 * - connectionTimeout: how long a socket may go without any traffic either way, longer than the
 *   model's own time limit so a slow answer is never cut;
 * - checkIntervalMs: how often Node looks for connections past the first two limits.
 */
export type ServerTimeouts = {
  headersTimeoutMs: number
  requestTimeoutMs: number
  keepAliveTimeoutMs: number
  connectionTimeoutMs: number
  checkIntervalMs: number
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  connectionTimeoutMs: 180_000,
  checkIntervalMs: 2_000,
}

/** The Fastify constructor options that carry them to Node's HTTP server. */
export function fastifyTimeoutOptions(t: ServerTimeouts) {
  return {
    connectionTimeout: t.connectionTimeoutMs,
    keepAliveTimeout: t.keepAliveTimeoutMs,
    requestTimeout: t.requestTimeoutMs,
    http: {
      // Node requires headersTimeout <= requestTimeout.
      headersTimeout: Math.min(t.headersTimeoutMs, t.requestTimeoutMs),
      connectionsCheckingInterval: t.checkIntervalMs,
    },
  }
}
