/** `app.mailer` (mailer.ts) for the domains that send mail; its SMTP connections close with the app. */
import fp from 'fastify-plugin'
import type { MailConfig } from '../config.ts'
import { createMailer, type Mailer } from './mailer.ts'

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer
  }
}

export const mailPlugin = fp<{ mail: MailConfig }>(
  async (app, { mail }) => {
    const mailer = createMailer(mail, app.log)
    app.decorate('mailer', mailer)
    if (mail.transport === 'off')
      app.log.warn(
        'Mail is off (NODE_ENV=production without SMTP_URL): password reset by email is unavailable',
      )
    app.addHook('onClose', async () => mailer.close())
  },
  { name: 'mail' },
)
