/**
 * A stand-in Pact broker (no real one is reachable from here): just enough of the broker's HAL
 * API for the Pact CLI's `publish` and `can-i-deploy` and for a Verifier that fetches pacts and
 * publishes results. It records every request, so tests assert what the tools sent.
 */
import { once } from 'node:events'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export type RecordedRequest = {
  method: string
  path: string
  authorization: string | undefined
  body: unknown
}

export type FakeBroker = {
  url: string
  requests: RecordedRequest[]
  /** Pacts the verifier will be given, as JSON documents. */
  pacts: unknown[]
  /** What can-i-deploy's matrix answers. */
  deployable: boolean
  close(): Promise<void>
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export async function startFakeBroker(): Promise<FakeBroker> {
  const broker: FakeBroker = { url: '', requests: [], pacts: [], deployable: true, close: async () => {} }
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', broker.url)
    const body = await readBody(request)
    broker.requests.push({
      method: request.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      authorization: request.headers.authorization,
      body,
    })
    const send = (status: number, json: unknown) => {
      response.writeHead(status, { 'content-type': 'application/hal+json' })
      response.end(JSON.stringify(json))
    }
    const base = broker.url
    const pactHref = (index: number) => `${base}/pacts/fake/${index}`
    if (request.method === 'GET' && url.pathname === '/') {
      return send(200, {
        _links: {
          'pb:publish-contracts': { href: `${base}/contracts/publish` },
          'pb:provider-pacts-for-verification': {
            href: `${base}/pacts/provider/{provider}/for-verification`,
            templated: true,
          },
        },
      })
    }
    if (request.method === 'POST' && url.pathname === '/contracts/publish') {
      return send(200, { logs: [{ level: 'info', message: 'Published (fake broker)' }], _links: {} })
    }
    if (request.method === 'GET' && url.pathname === '/matrix') {
      const reason = broker.deployable
        ? 'All verified (fake broker)'
        : 'No verification results (fake broker)'
      return send(200, {
        summary: { deployable: broker.deployable, reason, success: broker.deployable ? 1 : 0, failed: 0 },
        matrix: [],
      })
    }
    const forVerification = /^\/pacts\/provider\/[^/]+\/for-verification$/.test(url.pathname)
    // The verifier reads the resource first, then POSTs its selectors to the resource's self link.
    if (request.method === 'GET' && forVerification) {
      return send(200, { _links: { self: { href: `${base}${url.pathname}` } } })
    }
    if (request.method === 'POST' && forVerification) {
      return send(200, {
        _embedded: {
          pacts: broker.pacts.map((_, index) => ({
            shortDescription: `pact ${index}`,
            verificationProperties: { pending: false, notices: [] },
            _links: { self: { href: pactHref(index), name: `pact ${index}` } },
          })),
        },
      })
    }
    const pact = /^\/pacts\/fake\/(\d+)$/.exec(url.pathname)
    if (request.method === 'GET' && pact) {
      const document = broker.pacts[Number(pact[1])]
      if (!document) return send(404, {})
      return send(200, {
        ...(document as object),
        _links: {
          self: { href: pactHref(Number(pact[1])) },
          'pb:publish-verification-results': { href: `${pactHref(Number(pact[1]))}/verification-results` },
          'pb:provider': {
            href: `${base}/pacticipants/${(document as { provider: { name: string } }).provider.name}`,
          },
        },
      })
    }
    // The verifier files its provider version under a branch before publishing the results.
    const pacticipant = /^\/pacticipants\/([^/]+)$/.exec(url.pathname)
    if (request.method === 'GET' && pacticipant) {
      return send(200, {
        _links: {
          'pb:branch-version': {
            href: `${base}/pacticipants/${pacticipant[1]}/branches/{branch}/versions/{version}`,
            templated: true,
          },
        },
      })
    }
    if (
      request.method === 'PUT' &&
      /^\/pacticipants\/[^/]+\/branches\/[^/]+\/versions\/[^/]+$/.test(url.pathname)
    ) {
      return send(200, { _links: {} })
    }
    if (request.method === 'POST' && /^\/pacts\/fake\/\d+\/verification-results$/.test(url.pathname)) {
      return send(201, { _links: {} })
    }
    return send(404, { error: `fake broker: nothing at ${request.method} ${url.pathname}` })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  broker.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  broker.close = async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  return broker
}
