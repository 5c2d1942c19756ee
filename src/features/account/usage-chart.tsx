import { USAGE_SOURCES, type UsageDay, type UsageSource } from '#contracts/usage.ts'
import { css } from '../../../styled-system/css'

/** Where an answer was asked, as the chart's legend and table name it. */
export const SOURCE_LABELS: Record<UsageSource, string> = {
  app: 'App',
  api: 'API',
  published: 'Published assistants',
}

const FILLS: Record<UsageSource, string> = {
  app: css({ fill: 'brand.700', bg: 'brand.700' }),
  api: css({ fill: 'brand.500', bg: 'brand.500' }),
  published: css({ fill: 'muted', bg: 'muted' }),
}

const WIDTH = 600
const HEIGHT = 140
const AXIS = 16
/** Room above the tallest bar for the "max" label. */
const TOP = 16

const figureStyle = css({ display: 'flex', flexDirection: 'column', gap: '1', m: '0' })
const captionStyle = css({ fontSize: 'sm', fontWeight: 'medium' })
const axisStyle = css({ fill: 'muted', fontSize: '11px' })
const swatchStyle = css({ display: 'inline-block', w: '3', h: '3', borderRadius: 'sm', mr: '1' })

export const formatCount = (n: number) => n.toLocaleString('en-US')

/** "November 2026" for `2026-11`, in UTC as the days are counted. */
export const monthName = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  })

export type Measure = 'tokens' | 'answers'

const total = (day: UsageDay, measure: Measure) =>
  USAGE_SOURCES.reduce((sum, source) => sum + day.sources[source][measure], 0)

/** One sentence a screen reader hears for the chart: the whole window, its busiest day. */
export function chartSummary(days: UsageDay[], measure: Measure): string {
  const all = days.reduce((sum, d) => sum + total(d, measure), 0)
  const busiest = days.reduce<UsageDay | null>(
    (top, d) => (!top || total(d, measure) > total(top, measure) ? d : top),
    null,
  )
  const most =
    busiest && all > 0 ? `; the most on ${busiest.day}: ${formatCount(total(busiest, measure))}` : ''
  const span = days.length === 1 ? 'the last day' : `the last ${days.length} days`
  return `${measure === 'tokens' ? 'Tokens' : 'Answers'} in ${span}: ${formatCount(all)}${most}.`
}

/** A day's bar, stacked app, then API, then published from the bottom; each part names itself. */
function Bar({
  day,
  index,
  slot,
  max,
  measure,
}: {
  day: UsageDay
  index: number
  slot: number
  max: number
  measure: Measure
}) {
  let y = HEIGHT - AXIS
  return (
    <g>
      {USAGE_SOURCES.map((source) => {
        const value = day.sources[source][measure]
        if (value === 0) return null
        const h = Math.max(1, (value / max) * (HEIGHT - AXIS - TOP))
        y -= h
        return (
          <rect
            key={source}
            className={FILLS[source]}
            x={index * slot + slot * 0.15}
            y={y}
            width={slot * 0.7}
            height={h}
          >
            <title>{`${day.day} · ${SOURCE_LABELS[source]}: ${formatCount(value)} ${measure}`}</title>
          </rect>
        )
      })}
    </g>
  )
}

/** Per-day stacked bars of one measure; the table beside it (usage-card.tsx) carries every figure. */
export function UsageChart({ days, measure, title }: { days: UsageDay[]; measure: Measure; title: string }) {
  const max = Math.max(1, ...days.map((d) => total(d, measure)))
  const slot = WIDTH / Math.max(1, days.length)
  return (
    <figure className={figureStyle}>
      <figcaption className={captionStyle}>{title}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={chartSummary(days, measure)}
        className={css({ w: 'full', h: 'auto' })}
      >
        {days.map((day, i) => (
          <Bar key={day.day} day={day} index={i} slot={slot} max={max} measure={measure} />
        ))}
        <line x1={0} x2={WIDTH} y1={HEIGHT - AXIS} y2={HEIGHT - AXIS} className={css({ stroke: 'border' })} />
        <text x={0} y={HEIGHT - 3} className={axisStyle}>
          {days[0]?.day}
        </text>
        <text x={WIDTH} y={HEIGHT - 3} textAnchor="end" className={axisStyle}>
          {days.at(-1)?.day}
        </text>
        <text x={WIDTH} y={11} textAnchor="end" className={axisStyle}>
          {`max ${formatCount(max)}`}
        </text>
      </svg>
    </figure>
  )
}

/** Which colour is which source. */
export function UsageLegend() {
  return (
    <ul aria-hidden="true" className={css({ display: 'flex', gap: '4', fontSize: 'sm', color: 'muted' })}>
      {USAGE_SOURCES.map((source) => (
        <li key={source}>
          <span className={`${swatchStyle} ${FILLS[source]}`} />
          {SOURCE_LABELS[source]}
        </li>
      ))}
    </ul>
  )
}
