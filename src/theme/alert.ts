import { cva } from '../../styled-system/css'

/** A box of words about what just happened: danger (an error) or info. */
export const alert = cva({
  base: { borderWidth: '1px', borderRadius: 'lg', px: '4', py: '3', fontSize: 'sm' },
  variants: {
    tone: {
      danger: { bg: 'dangerBg', color: 'danger', borderColor: 'dangerBorder' },
      info: { bg: 'brand.50', color: 'brand.700', borderColor: 'brand.100' },
    },
  },
  defaultVariants: { tone: 'danger' },
})
