/**
 * The OpenAPI 3.1 document of /api/v1 (issue 38, D127), generated from the endpoint objects in
 * contracts/ with zod 4's own JSON Schema (`z.toJSONSchema`, draft 2020-12: OpenAPI 3.1's own
 * dialect), so the document cannot say anything the server does not validate and answer. Path
 * parameters, the query, the body (its input form: what a caller may send) and the success
 * answer (its output form: what the server sends) are each the contract's schema; every failure
 * is the one error envelope.
 */
import { z } from 'zod'
import { type Endpoint, ErrorEnvelopeSchema } from '#contracts/endpoint.ts'
import { type CataloguedEndpoint, catalogue } from './endpoint-catalogue.ts'

type JsonSchema = Record<string, unknown>
type Io = 'input' | 'output'

export const OPENAPI_VERSION = '3.1.0'

/**
 * A contract schema as JSON Schema. A transform or custom check has no JSON Schema: it is
 * described as what it accepts (`{}`) rather than refusing the whole document.
 */
export function jsonSchemaOf(schema: z.core.$ZodType, io: Io): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema
  return rest
}

/** `/chat/sessions/:id/delete` → `/chat/sessions/{id}/delete`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}')
}

/** The operation's name: its group and member (`chat.sendMessage` → `chat_sendMessage`). */
export function operationId(name: string): string {
  return name.replace(/[^A-Za-z0-9]+/g, '_')
}

function parameters(e: Endpoint): JsonSchema[] {
  const list: JsonSchema[] = []
  for (const [where, schema] of [
    ['path', e.params],
    ['query', e.query],
  ] as const) {
    if (!schema) continue
    const object = jsonSchemaOf(schema, 'input')
    const properties = (object.properties ?? {}) as Record<string, JsonSchema>
    const required = new Set((object.required ?? []) as string[])
    for (const [name, property] of Object.entries(properties)) {
      list.push({ name, in: where, required: where === 'path' || required.has(name), schema: property })
    }
  }
  return list
}

/** A multipart upload: the file, and the optional fields the upload calls read. */
const UPLOAD_BODY: JsonSchema = {
  type: 'object',
  properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
  required: ['file'],
}

function requestBody(e: Endpoint): JsonSchema | undefined {
  if (e.kind === 'upload')
    return { required: true, content: { 'multipart/form-data': { schema: UPLOAD_BODY } } }
  if (!e.request) return undefined
  return { required: true, content: { 'application/json': { schema: jsonSchemaOf(e.request, 'input') } } }
}

/** Where the success answer's schema sits, by how the call travels. */
function successContent(e: Endpoint): JsonSchema {
  switch (e.kind) {
    case 'stream':
      // One schema per event: `event: <name>` and its `data:` line, as contracts/event-stream.ts reads them.
      return { 'text/event-stream': { schema: jsonSchemaOf(e.response, 'output') } }
    case 'file':
      return {
        'application/octet-stream': {
          schema: { type: 'string', contentMediaType: 'application/octet-stream' },
        },
      }
    default:
      return { 'application/json': { schema: jsonSchemaOf(e.response, 'output') } }
  }
}

function operation({ tag, name, endpoint: e }: CataloguedEndpoint): JsonSchema {
  const params = parameters(e)
  const body = requestBody(e)
  return {
    operationId: operationId(name),
    tags: [tag],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: {
      [String(e.status)]: {
        description: e.kind === 'stream' ? 'The answer, as server-sent events' : 'Success',
        content: successContent(e),
      },
      default: {
        description: 'Refused or failed: a sentence a person can read (with Retry-After on 429)',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      },
    },
  }
}

/** The whole document, built once per process (the contracts do not change while it runs). */
export function buildOpenApiDocument(version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {}
  for (const entry of catalogue()) {
    const path = openApiPath(entry.endpoint.path)
    paths[path] ??= {}
    paths[path][entry.endpoint.method.toLowerCase()] = operation(entry)
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'DocChat API',
      version,
      description:
        'Every call of the DocChat app under /api/v1, generated from its zod contracts. The browser signs in with ' +
        'cookies; a success is `{ success: true, data }` (the probes and streams answer bare) and a failure ' +
        '`{ success: false, message }`.',
    },
    paths,
    components: { schemas: { ErrorEnvelope: jsonSchemaOf(ErrorEnvelopeSchema, 'output') } },
  }
}
