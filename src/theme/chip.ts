import { css } from '../../styled-system/css'

/**
 * A document as a chip, one line: the files of a conversation and the documents a chat searches
 * (D70) look alike. A chip with a remove button at its end takes less room on the right.
 */
export const chip = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
  maxW: 'full',
  px: '3',
  py: '1',
  bg: 'surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'full',
  '&:has(> button)': { pr: '1', py: '0.5' },
})
