/**
 * The inbox's per-day chart (issue 37): conversations as bars, tokens as a line, the last 30 days,
 * a small SVG. A screen reader gets its title and, in its description, every day's numbers.
 */
import { useId } from 'react'
import { css } from '../../../styled-system/css'

type Day = { day: string; conversations: number; tokens: number }

const WIDTH = 300
const HEIGHT = 80
const numbers = new Intl.NumberFormat()

/** What the chart shows, in words: the totals, then each day that had any conversation. */
export function chartDescription(days: Day[]): string {
  const conversations = days.reduce((sum, d) => sum + d.conversations, 0)
  const tokens = days.reduce((sum, d) => sum + d.tokens, 0)
  const total = `${numbers.format(conversations)} conversations and ${numbers.format(tokens)} tokens in the last ${days.length} days.`
  const busy = days.filter((d) => d.conversations > 0 || d.tokens > 0)
  if (busy.length === 0) return `${total} No day had any.`
  const each = busy.map(
    (d) => `${d.day}: ${d.conversations} conversations, ${numbers.format(d.tokens)} tokens`,
  )
  return `${total} ${each.join('; ')}. The other days had none.`
}

export function InboxChart({ days }: { days: Day[] }) {
  const titleId = useId()
  const descId = useId()
  const most = Math.max(1, ...days.map((d) => d.conversations))
  const mostTokens = Math.max(1, ...days.map((d) => d.tokens))
  const step = WIDTH / Math.max(1, days.length)
  const line = days
    .map((d, i) => `${(i + 0.5) * step},${HEIGHT - (d.tokens / mostTokens) * (HEIGHT - 4)}`)
    .join(' ')
  return (
    <figure className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
      <svg
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descId}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className={css({ w: 'full', maxW: 'md', h: 'auto', color: 'accent' })}
      >
        <title id={titleId}>Conversations and tokens per day</title>
        <desc id={descId}>{chartDescription(days)}</desc>
        {days.map((d, i) => {
          const h = (d.conversations / most) * (HEIGHT - 4)
          return (
            <rect
              key={d.day}
              x={i * step + 1}
              y={HEIGHT - h}
              width={Math.max(1, step - 2)}
              height={h}
              fill="currentColor"
              opacity={0.35}
            />
          )
        })}
        {days.length > 1 ? (
          <polyline points={line} fill="none" stroke="currentColor" strokeWidth={1.5} />
        ) : null}
      </svg>
      <figcaption className={css({ fontSize: 'xs', color: 'muted' })}>
        Bars: conversations a day. Line: tokens a day.
      </figcaption>
    </figure>
  )
}
