import { Button } from './button.tsx'
import { EyeIcon, EyeOffIcon } from './icons.tsx'
import { TextField, type TextFieldProps } from './text-field.tsx'

export type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'endAdornment'> & {
  /** Controlled so several fields can share one visibility (product §2: confirm follows password). */
  visible: boolean
  onVisibleChange: (visible: boolean) => void
}

/** A password input with a show/hide toggle button. */
export function PasswordField({ visible, onVisibleChange, ...props }: PasswordFieldProps) {
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      endAdornment={
        <Button
          variant="ghost"
          size="icon"
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-pressed={visible}
          onClick={() => onVisibleChange(!visible)}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </Button>
      }
    />
  )
}
