import type { UsageByAssistant, UsageByKey } from '#contracts/usage.ts'
import { hintStyle, usageTableStyle } from './settings-styles.ts'
import { formatCount, monthName } from './usage-chart.tsx'

type Row = { id: string; label: string; tokens: number; answers: number }

const keyLabel = (k: UsageByKey) =>
  k.name === null ? 'Deleted key' : `${k.name}${k.prefix ? ` (${k.prefix}…)` : ''}`

/** One small table of this month's figures: a name, its tokens and answers; a sentence when empty. */
function SubjectTable({ title, empty, rows }: { title: string; empty: string; rows: Row[] }) {
  return (
    <section aria-label={title}>
      <h4 className={hintStyle}>{title}</h4>
      {rows.length === 0 ? (
        <p className={hintStyle}>{empty}</p>
      ) : (
        <table className={usageTableStyle} aria-label={title}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Tokens</th>
              <th scope="col">Answers</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <th scope="row">{r.label}</th>
                <td>{formatCount(r.tokens)}</td>
                <td>{formatCount(r.answers)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

/** This month's answers through each API key (D134). */
export function UsageByKeyTable({ month, keys }: { month: string; keys: UsageByKey[] }) {
  return (
    <SubjectTable
      title={`${monthName(month)}, per API key`}
      empty="No answers through an API key this month."
      rows={keys.map((k) => ({ ...k, label: keyLabel(k) }))}
    />
  )
}

/** This month's answers by each assistant, in the app, through the API and published (D134). */
export function UsageByAssistantTable({
  month,
  assistants,
}: {
  month: string
  assistants: UsageByAssistant[]
}) {
  return (
    <SubjectTable
      title={`${monthName(month)}, per assistant`}
      empty="No answers by an assistant this month."
      rows={assistants.map((a) => ({ ...a, label: a.name ?? 'Deleted assistant' }))}
    />
  )
}
