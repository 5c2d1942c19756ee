import { css } from '../../../styled-system/css'

/**
 * A short message centred in its area: an empty state, or what went wrong. Apart from
 * empty-state.tsx because /login's error boundary needs only this style, not the component.
 */
export const centredNoticeStyle = css({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  textAlign: 'center',
  gap: '3',
  py: '12',
  px: '6',
  maxW: 'md',
  mx: 'auto',
})
