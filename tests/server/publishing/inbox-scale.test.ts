/**
 * The owner's inbox with many visitors (issue 37, D122): an assistant with 10,000 visitor
 * conversations (two messages each) lists a page by reading its index backwards, counting only
 * that page's messages — no sort of every conversation — on the first page, a later page and the
 * Unanswered filter. The plan is read with EXPLAIN after ANALYZE, as the database would plan it
 * for an inbox this size. With TEST_DATABASE_URL set it runs on PostgreSQL.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { App } from '#server/app.ts'
import { queryRows } from '#server/db/query-rows.ts'
import { type InboxPageQuery, inboxPageQuery, listInbox } from '#server/publishing/inbox-repository.ts'
import { INBOX_PAGE_SIZE } from '#server/publishing/inbox-service.ts'
import { createAssistantOk } from '../support/assistant-helpers.ts'
import { newPerson } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { patchAssistantOk } from '../support/publishing-helpers.ts'

const CONVERSATIONS = 10_000
const clock = new Date('2030-01-01T12:00:00Z').getTime()
let app: App
let assistantId = ''

type PlanNode = { 'Node Type': string; 'Index Name'?: string; Plans?: PlanNode[] }

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)]
}

async function planOf(q: InboxPageQuery): Promise<PlanNode[]> {
  const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(
    app.db,
    sql`explain (format json) ${inboxPageQuery(q)}`,
  )
  // PostgreSQL answers the JSON parsed; PGlite as text.
  const raw = row?.['QUERY PLAN']
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[]
  return nodes(parsed[0]?.Plan as PlanNode)
}

beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(clock) })
  const owner = await newPerson(app, 'inbox-scale-owner')
  assistantId = (await createAssistantOk(app, owner.cookie, { name: 'Busy bot' }))._id
  await patchAssistantOk(app, owner.cookie, assistantId, { published: true })
  // A conversation a minute, one in fifty disliked (Unanswered), each a question and an answer.
  await app.db.execute(sql`
    insert into visitor_conversations (assistant_id, user_id, visitor_key, first_question, created_at, updated_at)
    select ${assistantId}::uuid, ${owner.id}::uuid, 'anon-' || n, 'Question ' || n,
      ${new Date(clock).toISOString()}::timestamptz - make_interval(mins => n),
      ${new Date(clock).toISOString()}::timestamptz - make_interval(mins => n)
    from generate_series(1, ${CONVERSATIONS}) n`)
  await app.db.execute(sql`
    insert into visitor_messages (conversation_id, is_user, content, feedback, created_at)
    select c.id, m.is_user, case when m.is_user then c.first_question else 'An answer.' end,
      case when not m.is_user and c.visitor_key like '%50' then 'dislike' end, c.created_at
    from visitor_conversations c cross join (values (true), (false)) m(is_user)
    where c.assistant_id = ${assistantId}::uuid`)
  await app.db.execute(sql`analyze visitor_conversations`)
  await app.db.execute(sql`analyze visitor_messages`)
}, 120_000)

afterAll(async () => {
  await app.close()
})

const page = (q: Partial<InboxPageQuery> = {}): InboxPageQuery => ({
  assistantId,
  unanswered: false,
  after: null,
  limit: INBOX_PAGE_SIZE,
  ...q,
})

test('a page of an inbox of 10,000 conversations is read from the index in order, with no sort of them all', async () => {
  const first = await listInbox(app.db, page())
  expect(first).toHaveLength(INBOX_PAGE_SIZE + 1)
  expect(first[0]?.firstQuestion).toBe('Question 1')
  const last = first.at(INBOX_PAGE_SIZE - 1)
  const later = page({ after: last ? { updatedAt: last.updatedAt, id: last.id } : null })
  expect((await listInbox(app.db, later))[0]?.firstQuestion).toBe(`Question ${INBOX_PAGE_SIZE + 1}`)

  for (const q of [page(), later, page({ unanswered: true })]) {
    const plan = await planOf(q)
    const types = plan.map((n) => n['Node Type'])
    expect(plan.map((n) => n['Index Name'])).toContain('visitor_conversations_assistant_updated_idx')
    expect(types).not.toContain('Sort')
    expect(types).not.toContain('Incremental Sort')
  }
})
