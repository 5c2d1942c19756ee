import { GOOGLE_SIGN_IN_PATH } from '#contracts/auth.ts'
import { css } from '../../../styled-system/css'

const buttonStyle = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '3',
  w: 'full',
  h: '11',
  px: '5',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'lg',
  bg: 'surface',
  color: 'text',
  fontWeight: 'medium',
  textDecoration: 'none',
  _hover: { bg: 'surfaceMuted' },
})

const dividerStyle = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  color: 'muted',
  fontSize: 'sm',
  _before: { content: '""', flex: '1', borderTopWidth: '1px', borderColor: 'border' },
  _after: { content: '""', flex: '1', borderTopWidth: '1px', borderColor: 'border' },
})

/** 'Sign in with Google' (D77): a page load through the server, which comes back signed in or to /login saying why not. */
export function GoogleSignInButton() {
  return (
    <>
      <div className={dividerStyle}>or</div>
      <a href={GOOGLE_SIGN_IN_PATH} className={buttonStyle}>
        <GoogleMark />
        Sign in with Google
      </a>
    </>
  )
}

/** Google's "G", in Google's colours, as its brand guidelines ask for the button. */
function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true">
      <path
        fill="#EA4335"
        d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.2C12.5 13.6 17.8 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 7l7.4 5.7c4.3-4 6.9-9.9 6.9-17.2z"
      />
      <path
        fill="#FBBC05"
        d="M10.6 28.7c-.5-1.4-.8-3-.8-4.7s.3-3.2.8-4.7l-7.9-6.2C1 16.5 0 20.1 0 24s1 7.5 2.7 10.9l7.9-6.2z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.5 0 11.9-2.1 15.8-5.8l-7.4-5.7c-2.1 1.4-4.8 2.3-8.4 2.3-6.2 0-11.5-4.1-13.4-9.8l-7.9 6.2C6.6 42.6 14.6 48 24 48z"
      />
    </svg>
  )
}
