import { THEMES, type Theme } from '#machines/appearance/appearance-machine.ts'
import { Card } from '#src/components/ui/card.tsx'
import { css } from '../../../styled-system/css'
import { cardStyle, cardTitleStyle, hintStyle } from './settings-styles.ts'
import { useAppearance } from './use-appearance.ts'

const LABELS: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' }

// Three radios drawn as one segmented control: arrow keys move between them, as radios do.
const groupStyle = css({
  display: 'inline-flex',
  alignSelf: 'flex-start',
  p: '1',
  gap: '1',
  bg: 'surfaceMuted',
  borderRadius: 'lg',
})
const optionStyle = css({
  position: 'relative',
  px: '4',
  py: '1.5',
  borderRadius: 'md',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'muted',
  cursor: 'pointer',
  '&:has(input:checked)': { bg: 'surface', color: 'text', boxShadow: 'sm' },
  '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'focus', outlineOffset: '2px' },
})

/** Settings → Appearance (D136): light, dark, or the device's own setting, kept in this browser. */
export function AppearanceCard() {
  const { theme, choose } = useAppearance()
  return (
    <Card className={cardStyle}>
      <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
        <legend className={cardTitleStyle}>Appearance</legend>
        <p className={hintStyle}>
          System follows your device's light or dark setting. The choice is kept in this browser.
        </p>
        <div className={groupStyle}>
          {THEMES.map((option) => (
            <label key={option} className={optionStyle}>
              <input
                type="radio"
                name="theme"
                value={option}
                checked={theme === option}
                onChange={() => choose(option)}
                className={css({ srOnly: true })}
              />
              {LABELS[option]}
            </label>
          ))}
        </div>
      </fieldset>
    </Card>
  )
}
