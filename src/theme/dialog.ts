import { css } from '../../styled-system/css'

// A slot recipe as one class per slot (D107): no slot has variants yet, and Panda's sva() runtime,
// reached through the css barrel that /login's chunk imports, would land in /login.

/** Ark UI's Dialog (D107): a dimmed page, the dialog centred on it. */
export const dialog = {
  backdrop: css({ position: 'fixed', inset: '0', zIndex: '50', bg: 'rgba(15, 23, 42, 0.45)' }),
  positioner: css({
    position: 'fixed',
    inset: '0',
    zIndex: '50',
    display: 'grid',
    placeItems: 'center',
    p: '4',
  }),
  content: css({
    w: 'full',
    maxW: 'lg',
    maxH: 'calc(100dvh - 2rem)',
    overflowY: 'auto',
    p: '6',
    bg: 'surface',
    color: 'text',
    borderRadius: 'xl',
    boxShadow: 'xl',
    display: 'flex',
    flexDirection: 'column',
    gap: '4',
    _focusVisible: { outline: 'none' },
  }),
  header: css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }),
  title: css({ fontSize: 'lg', fontWeight: 'semibold' }),
  footer: css({ display: 'flex', justifyContent: 'flex-end', gap: '2', flexWrap: 'wrap' }),
}
