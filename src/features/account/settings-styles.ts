import { css } from '../../../styled-system/css'

export const cardStyle = css({ maxW: 'xl', display: 'flex', flexDirection: 'column', gap: '4' })
export const cardTitleStyle = css({ fontSize: 'lg', fontWeight: 'semibold' })
export const hintStyle = css({ fontSize: 'sm', color: 'muted' })
export const rowStyle = css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'center' })

/** The usage card's tables: figures right-aligned beside a left-aligned name. */
export const usageTableStyle = css({
  fontSize: 'sm',
  borderCollapse: 'collapse',
  '& th, & td': { px: '2', py: '1', textAlign: 'right' },
  '& th:first-child': { textAlign: 'left', whiteSpace: 'nowrap' },
})
