import type { ReactNode } from 'react'
import { LogoMark } from '#src/components/ui/icons.tsx'
import { useDocumentTitle } from '#src/components/ui/use-document-title.ts'
import { css } from '../../../styled-system/css'

type AuthLayoutProps = { title: string; subtitle?: string; footer: ReactNode; children: ReactNode }

/** The centred card both account screens share. */
export function AuthLayout({ title, subtitle, footer, children }: AuthLayoutProps) {
  useDocumentTitle(title)
  return (
    <main
      className={css({
        minH: '100dvh',
        display: 'grid',
        placeItems: 'center',
        px: '4',
        py: '10',
        bgGradient: 'to-b',
        gradientFrom: 'brand.50',
        gradientTo: 'bg',
      })}
    >
      <div
        className={css({
          w: 'full',
          maxW: '26rem',
          bg: 'surface',
          borderWidth: '1px',
          borderColor: 'border',
          borderRadius: '2xl',
          boxShadow: 'lg',
          px: { base: '6', sm: '8' },
          py: '8',
        })}
      >
        <div
          className={css({
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            gap: '2',
            mb: '6',
          })}
        >
          <LogoMark size={40} />
          <h1 className={css({ fontSize: '2xl', fontWeight: 'semibold', letterSpacing: '-0.01em', mt: '2' })}>
            {title}
          </h1>
          {subtitle ? <p className={css({ color: 'muted' })}>{subtitle}</p> : null}
        </div>
        {children}
        <p className={css({ mt: '6', textAlign: 'center', fontSize: 'sm', color: 'muted' })}>{footer}</p>
      </div>
    </main>
  )
}

export const formStyle = css({ display: 'flex', flexDirection: 'column', gap: '4' })
export const linkStyle = css({
  color: 'accent',
  fontWeight: 'medium',
  textDecoration: 'underline',
  textUnderlineOffset: '2px',
  _hover: { color: 'accentHover' },
})
