import { cva } from '../../styled-system/css'

/** A form's text input (sign in, account): tall, a focus ring; `sm` is in inline-input.ts. */
export const input = cva({
  base: {
    w: 'full',
    h: '11',
    px: '3',
    borderWidth: '1px',
    borderColor: 'border',
    borderRadius: 'lg',
    bg: 'surface',
    color: 'text',
    fontSize: 'md',
    transition: 'border-color 0.15s, box-shadow 0.15s',
    _placeholder: { color: 'muted' },
    _hover: { borderColor: 'borderStrong' },
    _focusVisible: { outline: 'none', borderColor: 'focus', boxShadow: 'focusRing' },
    _invalid: { borderColor: 'danger' },
    _readOnly: { bg: 'surfaceMuted', color: 'muted', cursor: 'default' },
    '&[data-adorned]': { pr: '11' },
  },
})
