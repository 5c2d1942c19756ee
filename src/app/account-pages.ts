/**
 * The account screens other than sign-in, loaded on demand (D139): sign-up and the pages behind
 * the mailed links (forgot, reset, confirm). Apart from the dashboard's file, so that opening one
 * fetches only these screens; what they share with /login is in /login's file already.
 */
export { ConfirmEmailView } from '#src/features/auth/confirm-email-view.tsx'
export { ForgotPasswordView } from '#src/features/auth/forgot-password-view.tsx'
export { RegisterView } from '#src/features/auth/register-view.tsx'
export { ResetPasswordView } from '#src/features/auth/reset-password-view.tsx'
