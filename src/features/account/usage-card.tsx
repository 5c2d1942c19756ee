import { USAGE_SOURCES, type UsageBySource, type UsageDay } from '#contracts/usage.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { css } from '../../../styled-system/css'
import { cardStyle, cardTitleStyle, hintStyle, usageTableStyle as tableStyle } from './settings-styles.ts'
import { formatCount, monthName, SOURCE_LABELS, UsageChart, UsageLegend } from './usage-chart.tsx'
import { UsageByAssistantTable, UsageByKeyTable } from './usage-subjects.tsx'
import { useUsage } from './use-account-settings.ts'

const sum = (s: UsageBySource, measure: 'tokens' | 'answers') =>
  USAGE_SOURCES.reduce((n, k) => n + s[k][measure], 0)

function MonthTotals({ month, sources }: { month: string; sources: UsageBySource }) {
  const parts = (measure: 'tokens' | 'answers') =>
    USAGE_SOURCES.map((k) => `${SOURCE_LABELS[k]} ${formatCount(sources[k][measure])}`).join(' · ')
  return (
    <dl
      aria-label="This month"
      className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '1 4' })}
    >
      <dt className={hintStyle}>{monthName(month)}, tokens</dt>
      <dd>
        <strong>{formatCount(sum(sources, 'tokens'))}</strong>{' '}
        <span className={hintStyle}>({parts('tokens')})</span>
      </dd>
      <dt className={hintStyle}>{monthName(month)}, answers</dt>
      <dd>
        <strong>{formatCount(sum(sources, 'answers'))}</strong>{' '}
        <span className={hintStyle}>({parts('answers')})</span>
      </dd>
    </dl>
  )
}

/** Every figure of the charts, newest day first: the charts' text alternative. */
function UsageTable({ days }: { days: UsageDay[] }) {
  return (
    <details>
      <summary className={hintStyle}>Show the figures as a table</summary>
      <div className={css({ overflowX: 'auto' })}>
        <table className={tableStyle} aria-label="Usage per day">
          <thead>
            <tr>
              <th scope="col">Day</th>
              {USAGE_SOURCES.map((k) => (
                <th scope="col" key={`t-${k}`}>{`${SOURCE_LABELS[k]} tokens`}</th>
              ))}
              {USAGE_SOURCES.map((k) => (
                <th scope="col" key={`a-${k}`}>{`${SOURCE_LABELS[k]} answers`}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {[...days].reverse().map((d) => (
              <tr key={d.day}>
                <th scope="row">{d.day}</th>
                {USAGE_SOURCES.map((k) => (
                  <td key={`t-${k}`}>{formatCount(d.sources[k].tokens)}</td>
                ))}
                {USAGE_SOURCES.map((k) => (
                  <td key={`a-${k}`}>{formatCount(d.sources[k].answers)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  )
}

/** Settings → Usage (D126): the last 30 days per source, and this month so far, also per key and assistant (D134). */
export function UsageCard() {
  const { loading, failed, report, error, retry } = useUsage()
  return (
    <Card className={cardStyle} aria-busy={loading}>
      <h3 className={cardTitleStyle}>Usage</h3>
      <p className={hintStyle}>
        The model tokens and answers of the last 30 days (UTC), in the app, through the API and by your
        published assistants.
        {report && report.tokensPerDay > 0
          ? ` You may use ${formatCount(report.tokensPerDay)} tokens a day in all.`
          : ''}
      </p>
      {error ? <Alert>{error}</Alert> : null}
      {loading && !report ? <p className={hintStyle}>Loading usage...</p> : null}
      {failed ? (
        <div>
          <Button variant="secondary" size="sm" onClick={retry}>
            Try again
          </Button>
        </div>
      ) : null}
      {report ? (
        <>
          <MonthTotals month={report.month.month} sources={report.month.sources} />
          <UsageLegend />
          <UsageChart days={report.days} measure="tokens" title="Tokens per day" />
          <UsageChart days={report.days} measure="answers" title="Answers per day" />
          <UsageTable days={report.days} />
          <UsageByKeyTable month={report.month.month} keys={report.month.keys} />
          <UsageByAssistantTable month={report.month.month} assistants={report.month.assistants} />
        </>
      ) : null}
    </Card>
  )
}
