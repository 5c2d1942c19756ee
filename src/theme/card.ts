import { cva } from '../../styled-system/css'

/**
 * A box on the page: `card` (a settings card, a panel), `inset` (a box inside a card or a
 * message, tinted instead of raised: the dislike question) or `row` (a conversation listed in
 * the history or in search results: the whole box is what a click opens).
 */
export const card = cva({
  base: { borderWidth: '1px', borderColor: 'border' },
  variants: {
    variant: {
      card: { bg: 'surface', borderRadius: 'xl', boxShadow: 'sm', p: '5' },
      inset: { bg: 'surfaceMuted', borderRadius: 'xl', p: '3' },
      row: { bg: 'surface', borderRadius: 'xl', _hover: { borderColor: 'borderStrong' } },
    },
  },
  defaultVariants: { variant: 'card' },
})
