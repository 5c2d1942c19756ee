/**
 * Drive v3's search language (`q`), the part a Drive-reading app uses: `and`/`or`/`not`,
 * parentheses; `name`, `mimeType` (`=`, `!=`, `contains`), `fullText contains`, `trashed`/`starred`
 * (`=`, `!=` a boolean), `modifiedTime`/`createdTime` compared with an RFC 3339 string, and
 * `'<folder id>|root' in parents`, `'me|<email>' in owners`. Anything else throws QuerySyntaxError,
 * which the route answers as Google does: 400 "Invalid Value" on `q`.
 * https://developers.google.com/workspace/drive/api/guides/ref-search-terms
 */
import type { StoredFile } from './store.ts'

export class QuerySyntaxError extends Error {}

export type QueryContext = { ownerEmail: string; rootFolderId: string }
export type FilePredicate = (file: StoredFile, context: QueryContext) => boolean

type Token =
  | { type: 'string'; value: string }
  | { type: 'word'; value: string }
  | { type: 'op'; value: string }
  | { type: 'paren'; value: '(' | ')' }

function tokenize(q: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < q.length) {
    const c = q.charAt(i)
    if (/\s/.test(c)) {
      i += 1
    } else if (c === "'") {
      let value = ''
      i += 1
      while (i < q.length && q.charAt(i) !== "'") {
        if (q.charAt(i) === '\\' && i + 1 < q.length) i += 1
        value += q.charAt(i)
        i += 1
      }
      if (i >= q.length) throw new QuerySyntaxError('unterminated string')
      i += 1
      tokens.push({ type: 'string', value })
    } else if (c === '(' || c === ')') {
      tokens.push({ type: 'paren', value: c })
      i += 1
    } else if ('=!<>'.includes(c)) {
      const two = q.slice(i, i + 2)
      const op = ['!=', '<=', '>='].includes(two) ? two : c
      if (op === '!') throw new QuerySyntaxError('stray !')
      tokens.push({ type: 'op', value: op })
      i += op.length
    } else if (/[A-Za-z]/.test(c)) {
      const word = /^[A-Za-z][A-Za-z0-9_]*/.exec(q.slice(i))?.[0] ?? c
      tokens.push({ type: 'word', value: word })
      i += word.length
    } else {
      throw new QuerySyntaxError(`unexpected ${c}`)
    }
  }
  return tokens
}

const STRING_FIELDS = new Set(['name', 'mimeType'])
const BOOLEAN_FIELDS = new Set(['trashed', 'starred'])
const TIME_FIELDS = new Set(['modifiedTime', 'createdTime'])

function compare<T>(op: string, a: T, b: T): boolean {
  switch (op) {
    case '=':
      return a === b
    case '!=':
      return a !== b
    case '<':
      return a < b
    case '<=':
      return a <= b
    case '>':
      return a > b
    case '>=':
      return a >= b
    default:
      throw new QuerySyntaxError(`operator ${op}`)
  }
}

/** Drive's `name contains` matches prefixes of words ('hello' finds "HelloWorld", not "WorldHello"). */
function nameContains(name: string, value: string): boolean {
  const haystack = name.toLowerCase()
  const needle = value.toLowerCase()
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    if (at === 0 || !/[a-z0-9]/.test(haystack.charAt(at - 1))) return true
  }
  return false
}

function parseTime(value: string): number {
  // RFC 3339; a time without an offset is UTC.
  const withZone = /[zZ]|[+-]\d\d:\d\d$/.test(value) ? value : `${value}Z`
  const time = Date.parse(withZone)
  if (!/^\d{4}-\d\d-\d\d/.test(value) || Number.isNaN(time)) throw new QuerySyntaxError(`bad time ${value}`)
  return time
}

export function parseDriveQuery(q: string): FilePredicate {
  const tokens = tokenize(q)
  let pos = 0
  const peek = () => tokens[pos]
  const next = () => {
    const token = tokens[pos]
    if (!token) throw new QuerySyntaxError('unexpected end of query')
    pos += 1
    return token
  }
  const isWord = (token: Token | undefined, word: string) => token?.type === 'word' && token.value === word

  function orExpr(): FilePredicate {
    let left = andExpr()
    while (isWord(peek(), 'or')) {
      next()
      const a = left
      const b = andExpr()
      left = (f, c) => a(f, c) || b(f, c)
    }
    return left
  }

  function andExpr(): FilePredicate {
    let left = unary()
    while (isWord(peek(), 'and')) {
      next()
      const a = left
      const b = unary()
      left = (f, c) => a(f, c) && b(f, c)
    }
    return left
  }

  function unary(): FilePredicate {
    const token = peek()
    if (isWord(token, 'not')) {
      next()
      const inner = unary()
      return (f, c) => !inner(f, c)
    }
    if (token?.type === 'paren' && token.value === '(') {
      next()
      const inner = orExpr()
      const close = next()
      if (close.type !== 'paren' || close.value !== ')') throw new QuerySyntaxError('missing )')
      return inner
    }
    return term()
  }

  function term(): FilePredicate {
    const first = next()
    if (first.type === 'string') {
      if (!isWord(next(), 'in')) throw new QuerySyntaxError('expected in')
      const collection = next()
      if (collection.type !== 'word') throw new QuerySyntaxError('expected a collection')
      return membership(first.value, collection.value)
    }
    if (first.type !== 'word') throw new QuerySyntaxError('expected a field')
    const field = first.value
    const op = next()
    if (op.type === 'word' && op.value === 'contains') {
      const value = next()
      if (value.type !== 'string') throw new QuerySyntaxError('contains needs a string')
      return containsTerm(field, value.value)
    }
    if (op.type !== 'op') throw new QuerySyntaxError(`expected an operator after ${field}`)
    const value = next()
    return comparison(field, op.value, value)
  }

  const predicate = orExpr()
  if (pos !== tokens.length) throw new QuerySyntaxError('trailing tokens')
  return predicate
}

function membership(value: string, collection: string): FilePredicate {
  if (collection === 'parents') {
    return (f, c) => f.parents.includes(value === 'root' ? c.rootFolderId : value)
  }
  if (collection === 'owners' || collection === 'writers' || collection === 'readers') {
    return (f, c) => f.owner === (value === 'me' ? c.ownerEmail : value)
  }
  throw new QuerySyntaxError(`unsupported collection ${collection}`)
}

function containsTerm(field: string, value: string): FilePredicate {
  if (field === 'name') return (f) => nameContains(f.name, value)
  if (field === 'mimeType') return (f) => f.mimeType.includes(value)
  if (field === 'fullText') {
    const needle = value.toLowerCase()
    return (f) => `${f.name}\n${f.description ?? ''}\n${f.searchText}`.toLowerCase().includes(needle)
  }
  throw new QuerySyntaxError(`contains on ${field}`)
}

function comparison(field: string, op: string, value: Token): FilePredicate {
  if (STRING_FIELDS.has(field)) {
    if (value.type !== 'string' || (op !== '=' && op !== '!=')) throw new QuerySyntaxError(`${field} ${op}`)
    const key = field as 'name' | 'mimeType'
    return (f) => compare(op, f[key], value.value)
  }
  if (BOOLEAN_FIELDS.has(field)) {
    if (value.type !== 'word' || !['true', 'false'].includes(value.value) || (op !== '=' && op !== '!=')) {
      throw new QuerySyntaxError(`${field} ${op}`)
    }
    const key = field as 'trashed' | 'starred'
    const wanted = value.value === 'true'
    return (f) => compare(op, f[key], wanted)
  }
  if (TIME_FIELDS.has(field)) {
    if (value.type !== 'string') throw new QuerySyntaxError(`${field} needs a string`)
    const key = field as 'modifiedTime' | 'createdTime'
    const time = parseTime(value.value)
    return (f) => compare(op, f[key], time)
  }
  throw new QuerySyntaxError(`unsupported field ${field}`)
}
