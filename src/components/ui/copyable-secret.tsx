/**
 * A secret shown once (an API key, an assistant's identity secret): the value in a code block and
 * a Copy button that says when it has copied.
 */
import { codeBlock } from '#src/theme/code-block.ts'
import { css } from '../../../styled-system/css'
import { Button } from './button.tsx'
import { useCopyText } from './use-copy-text.ts'

export function CopyableSecret({
  value,
  copyLabel,
  testId,
}: {
  value: string
  copyLabel: string
  testId?: string
}) {
  const { copied, copy } = useCopyText(value)
  return (
    <>
      <pre className={codeBlock}>
        <code data-testid={testId}>{value}</code>
      </pre>
      <Button
        type="button"
        variant="secondary"
        size="sm"
        className={css({ alignSelf: 'flex-start' })}
        onClick={copy}
      >
        {copied ? 'Copied' : copyLabel}
      </Button>
    </>
  )
}
