import type { ComponentProps } from 'react'
import { cva, cx, type RecipeVariantProps } from '../../../styled-system/css'

const buttonRecipe = cva({
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

export type ButtonProps = ComponentProps<'button'> & RecipeVariantProps<typeof buttonRecipe>

/** A button that is never a form submit by accident: pass type="submit" to submit. */
export function Button({ variant, size, block, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={cx(buttonRecipe({ variant, size, block }), className)} {...props} />
}
