/**
 * Security headers (@fastify/helmet) on every response. The CSP fits the built Vite SPA: scripts
 * from our origin only; inline styles allowed because Panda and React style attributes need them.
 * HSTS and upgrade-insecure-requests only when served over https (they break http://localhost).
 */
import helmet from '@fastify/helmet'
import { sharedPlugin } from '../shared-plugin.ts'

export const securityHeadersPlugin = sharedPlugin<{ https: boolean }>(
  'security-headers',
  async (app, opts) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          scriptSrcAttr: ["'none'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(opts.https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      hsts: opts.https ? { maxAge: 180 * 24 * 60 * 60, includeSubDomains: true } : false,
    })
  },
)
