/**
 * An answer's markdown, rendered safely (loaded on demand, with its libraries, the first time an
 * answer shows): headings, lists, emphasis, tables and code blocks with a copy button. Raw HTML is
 * shown as text, never as HTML; links open only for http(s): and mailto:, in a new tab without
 * opener or referrer. A citation marker `[n]` becomes a button that shows passage n, with its
 * sentence's check (D129: ✓ checked, ⚠ unverified, said in its accessible name) or the model
 * judge's verdict (D140: ◇ judged supported, ⚠ judged not supported, said as the model's); a
 * marker pointing at no passage is left out.
 */
import type { ComponentProps, ReactNode } from 'react'
import ReactMarkdown from 'react-markdown'
import type { CitationCheck } from '#contracts/citation-checks.ts'
import { MARKER, markerChecks, markerLabel, markerSign } from '#machines/chat/citation-outcomes.ts'
import { Button } from '#src/components/ui/button.tsx'
import { useCopyText } from '#src/components/ui/use-copy-text.ts'
import { css } from '../../../styled-system/css'
import { remarkGfmParse } from './remark-gfm-parse.ts'

type MarkdownAnswerProps = {
  text: string
  /** The [n] numbers that name a passage of this answer. */
  citations: number[]
  /** The answer's citation checks (D129); null or absent: not checked. */
  checks?: CitationCheck[] | null | undefined
  /** A marker was chosen; `opener` is its button, where the focus goes back when the passage closes. */
  onCite: (n: number, opener: HTMLElement) => void
}

const SAFE_LINK = /^(https?:|mailto:)/i
const CITE_LINK = /^#cite-(\d+)-(\d+)$/

/**
 * `[n]` → a link to `#cite-n-k` (k: which marker of the text it is, for its check) when n names a
 * passage; dropped when it names none.
 */
export function linkCitations(text: string, citations: number[]): string {
  let k = 0
  return text.replace(MARKER, (marker, n: string) => {
    const at = k++
    return citations.includes(Number(n))
      ? `${marker.startsWith(' ') ? ' ' : ''}[[${n}]](#cite-${n}-${at})`
      : ''
  })
}

const proseStyle = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '2',
  '& h1, & h2, & h3, & h4': { fontWeight: 'semibold', mt: '1' },
  '& h1': { fontSize: 'lg' },
  '& h2': { fontSize: 'md' },
  '& ul': { listStyleType: 'disc', pl: '5' },
  '& ol': { listStyleType: 'decimal', pl: '5' },
  '& code': { fontFamily: 'mono', fontSize: 'sm', bg: 'surfaceMuted', px: '1', borderRadius: 'sm' },
  '& table': { borderCollapse: 'collapse', fontSize: 'sm' },
  // The bubble breaks long words anywhere; a cell never does ("Satur/day"): a wide table scrolls
  // sideways in its own box instead (issue 40, item 3).
  '& th, & td': {
    borderWidth: '1px',
    borderColor: 'border',
    px: '2',
    py: '1',
    textAlign: 'left',
    overflowWrap: 'normal',
    wordBreak: 'normal',
  },
  '& th': { bg: 'surfaceMuted', fontWeight: 'semibold' },
  '& blockquote': { borderLeftWidth: '3px', borderColor: 'border', pl: '3', color: 'muted' },
  '& a': { color: 'accent', textDecoration: 'underline' },
})

const tableBoxStyle = css({ maxW: 'full', overflowX: 'auto' })

/** A table in a box of its own that scrolls sideways; the table keeps its table semantics. */
function ScrollingTable({ children }: { children?: ReactNode }) {
  return (
    <div className={tableBoxStyle}>
      <table>{children}</table>
    </div>
  )
}

export function MarkdownAnswer({ text, citations, checks, onCite }: MarkdownAnswerProps) {
  const byMarker = markerChecks(text, checks)
  return (
    <div className={proseStyle}>
      <ReactMarkdown
        remarkPlugins={[remarkGfmParse]}
        urlTransform={(url) => (SAFE_LINK.test(url) || CITE_LINK.test(url) ? url : '')}
        components={{
          a: ({ href, children }) => (
            <AnswerLink href={href} onCite={onCite} byMarker={byMarker}>
              {children}
            </AnswerLink>
          ),
          pre: CodeBlock,
          table: ScrollingTable,
          img: ({ alt }) => <>{alt}</>,
        }}
      >
        {linkCitations(text, citations)}
      </ReactMarkdown>
    </div>
  )
}

function AnswerLink({
  href,
  children,
  onCite,
  byMarker,
}: {
  href?: string | undefined
  children: ReactNode
  onCite: (n: number, opener: HTMLElement) => void
  byMarker: (CitationCheck | null)[]
}) {
  const cite = href ? CITE_LINK.exec(href) : null
  if (cite) {
    const n = Number(cite[1])
    const check = byMarker[Number(cite[2])] ?? null
    const mark = markerSign(check)
    const label = markerLabel(n, check)
    return (
      <button
        type="button"
        aria-label={label}
        title={mark ? label : undefined}
        data-citation={n}
        data-outcome={mark ? check?.outcome : undefined}
        data-judge={check?.judge}
        onClick={(event) => onCite(n, event.currentTarget)}
        className={css({
          color: mark?.warn ? 'danger' : 'accent',
          fontSize: 'xs',
          verticalAlign: 'super',
          cursor: 'pointer',
          px: '0.5',
        })}
      >
        [{n}
        {mark ? <span aria-hidden="true">{mark.sign}</span> : null}]
      </button>
    )
  }
  if (!href) return <span>{children}</span>
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  )
}

/** A code block with a header bar that holds its copy button, so the button never covers the code. */
function CodeBlock({ children }: ComponentProps<'pre'>) {
  const code = textOf(children)
  const { copied, copy } = useCopyText(code)
  return (
    <div
      className={css({
        bg: 'surfaceMuted',
        borderRadius: 'md',
        borderWidth: '1px',
        borderColor: 'border',
        overflow: 'hidden',
      })}
    >
      <div
        className={css({
          display: 'flex',
          justifyContent: 'flex-end',
          px: '1',
          py: '0.5',
          borderBottomWidth: '1px',
          borderColor: 'border',
        })}
      >
        <Button variant="ghost" size="sm" onClick={copy}>
          <span aria-live="polite">{copied ? 'Copied code' : 'Copy code'}</span>
        </Button>
      </div>
      <pre
        className={css({
          p: '3',
          overflowX: 'auto',
          fontSize: 'sm',
          whiteSpace: 'pre',
          '& code': { bg: 'transparent', p: '0' },
        })}
      >
        {children}
      </pre>
    </div>
  )
}

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node)
  if (Array.isArray(node)) return node.map(textOf).join('')
  if (node && typeof node === 'object' && 'props' in node) {
    return textOf((node.props as { children?: ReactNode }).children)
  }
  return ''
}
