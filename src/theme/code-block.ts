import { css } from '../../styled-system/css'

/** Code a person copies into their own site (the widget's snippets, a token example): wrapped, never scrolled sideways. */
export const codeBlock = css({
  fontFamily: 'mono',
  fontSize: 'xs',
  bg: 'surfaceMuted',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
  p: '3',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
})
