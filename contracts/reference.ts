/**
 * The API's own description (issue 38, D127): the OpenAPI 3.1 document generated from the endpoint
 * objects in contracts/, public and cacheable. The reference page that renders it (`/api/docs`)
 * is a page, not a call, so it has no endpoint object.
 */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'

/** The reference page, outside /api/v1: a page for people, not a call. */
export const API_DOCS_PATH = '/api/docs'

export const openApiEndpoint = endpoint({
  method: 'GET',
  path: '/openapi.json',
  // An OpenAPI document: its shape is the OpenAPI 3.1 specification's, not ours; loose objects,
  // so the answer's serializer keeps every field of it.
  response: z.looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  }),
})
