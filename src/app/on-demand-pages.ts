/**
 * Everything past the sign-in screens, in one file loaded on demand: the dashboard, the
 * mailed-link pages (forgot, reset, confirm) and a shared conversation's public page. One chunk, not two: a second on-demand chunk beside
 * the dashboard's makes the bundler split React and the styles out of /login's file into a shared
 * one, which costs /login ~0.8 KB gz (bench/RESULTS.md); and whoever opens a mailed link signs in
 * next, so the dashboard's code is then already here.
 */
export { DashboardView } from '#src/app/dashboard/dashboard-view.tsx'
export { SharedConversationPage } from '#src/app/shared-conversation-page.tsx'
export { ConfirmEmailView } from '#src/features/auth/confirm-email-view.tsx'
export { ForgotPasswordView } from '#src/features/auth/forgot-password-view.tsx'
export { ResetPasswordView } from '#src/features/auth/reset-password-view.tsx'
