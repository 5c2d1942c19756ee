/**
 * Every endpoint object in contracts/, each with the name its OpenAPI operation takes (D127). A
 * module's endpoints are its exported endpoint objects and the members of its exported groups
 * (`chatEndpoints.sendMessage`). A new contracts module is listed here; the OpenAPI test imports
 * every file of contracts/ itself and fails when one is missing.
 */

import * as account from '#contracts/account.ts'
import * as accountLinks from '#contracts/account-links.ts'
import * as apiKeys from '#contracts/api-keys.ts'
import * as assistants from '#contracts/assistants.ts'
import * as auth from '#contracts/auth.ts'
import * as chat from '#contracts/chat.ts'
import * as documents from '#contracts/documents.ts'
import * as drive from '#contracts/drive.ts'
import type { Endpoint } from '#contracts/endpoint.ts'
import * as openai from '#contracts/openai.ts'
import * as operations from '#contracts/operations.ts'
import * as publishing from '#contracts/publishing.ts'
import * as reference from '#contracts/reference.ts'
import * as sharing from '#contracts/sharing.ts'
import * as usage from '#contracts/usage.ts'

/** The contracts modules, by the tag their calls are listed under. */
export const CONTRACT_MODULES: Record<string, Record<string, unknown>> = {
  auth,
  account,
  'account-links': accountLinks,
  chat,
  sharing,
  documents,
  drive,
  assistants,
  publishing,
  usage,
  'api-keys': apiKeys,
  openai,
  operations,
  reference,
}

export type CataloguedEndpoint = { tag: string; name: string; endpoint: Endpoint }

const KINDS = new Set(['json', 'stream', 'upload', 'file'])

/** An endpoint object as `endpoint()` makes it (its method, full path, kind and answer). */
export function isEndpoint(value: unknown): value is Endpoint {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return (
    typeof v.method === 'string' && typeof v.path === 'string' && KINDS.has(String(v.kind)) && 'response' in v
  )
}

/** A module's endpoint objects: exported alone, or as members of an exported group. */
export function endpointsOf(tag: string, module: Record<string, unknown>): CataloguedEndpoint[] {
  return Object.entries(module).flatMap(([exported, value]) => {
    if (isEndpoint(value)) return [{ tag, name: exported.replace(/Endpoint$/, ''), endpoint: value }]
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return []
    return Object.entries(value)
      .filter((entry): entry is [string, Endpoint] => isEndpoint(entry[1]))
      .map(([member, endpoint]) => ({
        tag,
        name: `${exported.replace(/Endpoints$/, '')}.${member}`,
        endpoint,
      }))
  })
}

export function catalogue(): CataloguedEndpoint[] {
  return Object.entries(CONTRACT_MODULES).flatMap(([tag, module]) => endpointsOf(tag, module))
}
