import { css } from '../../styled-system/css'

// A slot recipe as one class per slot (D107): no slot has variants yet, and Panda's sva() runtime,
// reached through the css barrel that /login's chunk imports, would land in /login.

/** The composer's `#` document picker (D70): a list over the composer, its choice highlighted. */
export const picker = {
  content: css({
    p: '1',
    bg: 'surface',
    borderWidth: '1px',
    borderColor: 'border',
    borderRadius: 'lg',
    boxShadow: 'lg',
    position: 'absolute',
    bottom: 'calc(100% + 0.5rem)',
    left: '0',
    right: '0',
    zIndex: '10',
    maxH: '64',
    overflowY: 'auto',
    fontSize: 'sm',
  }),
  item: css({
    display: 'block',
    px: '3',
    py: '2',
    borderRadius: 'md',
    fontSize: 'sm',
    cursor: 'pointer',
    outline: 'none',
    overflowWrap: 'anywhere',
    '&[aria-selected=true]': { bg: 'brand.50', color: 'brand.700', fontWeight: 'medium' },
  }),
  empty: css({ px: '3', py: '2', color: 'muted' }),
}
