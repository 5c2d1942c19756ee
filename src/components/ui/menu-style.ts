import { css, cx } from '../../../styled-system/css'

/** What floats over the page (a menu, the composer's `#` picker): a raised surface. */
export const popupSurfaceStyle = css({
  p: '1',
  bg: 'surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'lg',
  boxShadow: 'lg',
})

/** A small menu list that drops below its button, aligned to its right edge (Export, a document's actions). */
export const menuListStyle = cx(
  popupSurfaceStyle,
  css({
    position: 'absolute',
    top: 'full',
    right: '0',
    zIndex: '20',
    mt: '1',
    minW: '10rem',
  }),
)
