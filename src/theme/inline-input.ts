import { css } from '../../styled-system/css'

/**
 * A field inside something else, small: a conversation's title being renamed, a share link, the
 * dislike note. Apart from input.ts so /login's chunk carries only the form's field.
 */
export const inlineInput = css({
  w: 'full',
  px: '2',
  py: '1.5',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
  bg: 'surface',
  color: 'text',
  fontSize: 'sm',
  _placeholder: { color: 'muted' },
  _readOnly: { bg: 'surfaceMuted' },
})
