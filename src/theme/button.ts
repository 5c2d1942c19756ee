import { cva, type RecipeVariantProps } from '../../styled-system/css'

/**
 * Every button: primary (the one action), secondary (beside it), ghost (in a toolbar or a row),
 * danger (the action of a confirmation that destroys: delete a document, an account).
 */
export const button = cva({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    fontWeight: 'medium',
    borderRadius: 'lg',
    borderWidth: '1px',
    borderColor: 'transparent',
    cursor: 'pointer',
    transition: 'background 0.15s, border-color 0.15s, color 0.15s',
    whiteSpace: 'nowrap',
    _disabled: { opacity: 0.6, cursor: 'not-allowed' },
  },
  variants: {
    variant: {
      primary: { bg: 'accent', color: 'onAccent', _hover: { _enabled: { bg: 'accentHover' } } },
      secondary: {
        bg: 'surface',
        color: 'text',
        borderColor: 'border',
        _hover: { _enabled: { bg: 'surfaceMuted' } },
      },
      danger: {
        bg: 'danger',
        color: 'onAccent',
        _hover: { _enabled: { filter: 'brightness(0.9)' } },
      },
      ghost: {
        bg: 'transparent',
        color: 'muted',
        _hover: { _enabled: { bg: 'surfaceMuted', color: 'text' } },
      },
    },
    size: {
      sm: { h: '8', px: '3', fontSize: 'sm' },
      md: { h: '10', px: '4', fontSize: 'sm' },
      lg: { h: '11', px: '5', fontSize: 'md' },
      icon: { h: '9', w: '9', p: '0' },
    },
    block: { true: { w: 'full' } },
  },
  defaultVariants: { variant: 'primary', size: 'md' },
})

export type ButtonVariants = RecipeVariantProps<typeof button>
