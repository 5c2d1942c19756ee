import { css } from '../../../styled-system/css'

/** A small menu list that drops below its button, aligned to its right edge (Export, a document's actions). */
export const menuListStyle = css({
  position: 'absolute',
  top: 'full',
  right: '0',
  zIndex: '20',
  mt: '1',
  minW: '10rem',
  p: '1',
  bg: 'surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'lg',
  boxShadow: 'lg',
})
