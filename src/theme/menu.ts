import { css } from '../../styled-system/css'

// A slot recipe as one class per slot (D107): no slot has variants yet, and Panda's sva() runtime,
// reached through the css barrel that /login's chunk imports, would land in /login.

/**
 * Ark UI's Menu (D107): a small list of actions that drops below its button. The positioner
 * is Ark's (floating, flips when there is no room below); the look is ours.
 */
export const menu = {
  positioner: css({ zIndex: '20' }),
  content: css({
    p: '1',
    bg: 'surface',
    borderWidth: '1px',
    borderColor: 'border',
    borderRadius: 'lg',
    boxShadow: 'lg',
    minW: '10rem',
    _focusVisible: { outline: 'none' },
  }),
  item: css({
    display: 'flex',
    alignItems: 'center',
    px: '3',
    py: '2',
    borderRadius: 'md',
    fontSize: 'sm',
    cursor: 'pointer',
    outline: 'none',
    color: 'text',
    fontWeight: 'medium',
    transition: 'background 0.15s',
    _highlighted: { bg: 'surfaceMuted' },
    '&[data-tone=danger]': { color: 'danger' },
  }),
}
