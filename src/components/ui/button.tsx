import type { ComponentProps } from 'react'
import { type ButtonVariants, button } from '#src/theme/button.ts'
import { cx } from '../../../styled-system/css'

export type ButtonProps = ComponentProps<'button'> & ButtonVariants

/** A button that is never a form submit by accident: pass type="submit" to submit. */
export function Button({ variant, size, block, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={cx(button({ variant, size, block }), className)} {...props} />
}
