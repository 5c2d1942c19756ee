import { css } from '../../../styled-system/css'

/** The viewer's scrolling pane (PDF pages or text): it fills the space left and scrolls by keyboard once focused. */
export const paneStyle = css({
  flex: '1',
  minH: '0',
  overflowY: 'auto',
  borderRadius: 'lg',
  _focusVisible: { outline: '2px solid', outlineColor: 'accent' },
})
