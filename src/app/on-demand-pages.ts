/**
 * The signed-in app and a shared conversation's public page, in one file loaded on demand. The
 * sign-up and mailed-link screens are a file of their own (account-pages.ts): vite.config.ts keeps
 * every module /login already loads in /login's file, so several on-demand files no longer split
 * React and the styles into a shared file that /login would load too (D139).
 */
export { DashboardView } from '#src/app/dashboard/dashboard-view.tsx'
export { SharedConversationPage } from '#src/app/shared-conversation-page.tsx'
