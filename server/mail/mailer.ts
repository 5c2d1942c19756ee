/**
 * Mail leaves the server here, through nodemailer (D76): over SMTP_URL when it is set; outside
 * production without it, each mail is written to the log instead (its link included, so a
 * developer can follow it); in production without it there is no mail, and what needs mail says
 * so (`available` is false). A mail is plain text plus a simple HTML version of the same words.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Transporter } from 'nodemailer'
import type { MailConfig } from '../config.ts'

export type Mail = {
  to: string
  subject: string
  /** Paragraphs of plain text; the HTML version escapes them. */
  paragraphs: string[]
  /** The one link the mail is about: its own line in the text, a link in the HTML. */
  link: { label: string; url: string }
}

export type Mailer = {
  /** False when no mail can be sent (production without SMTP_URL). */
  available: boolean
  send: (mail: Mail) => Promise<void>
  close: () => void
}

/** SMTP can hang; a mail that is not handed over by then fails (and is logged). */
const SMTP_TIMEOUT_MS = 20_000

export function createMailer(config: MailConfig, log: FastifyBaseLogger): Mailer {
  if (config.transport === 'off') {
    return {
      available: false,
      send: async () => {
        throw new Error('Mail is off: SMTP_URL is not set')
      },
      close: () => undefined,
    }
  }
  let transporter: Promise<Transporter> | undefined
  const smtpUrl = config.transport === 'smtp' ? config.url : ''
  // nodemailer loads on the first mail: most starts never send one.
  const transport = () => {
    transporter ??= import('nodemailer').then((nodemailer) =>
      nodemailer.createTransport(
        {
          url: smtpUrl,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
        },
        { from: config.from },
      ),
    )
    return transporter
  }
  return {
    available: true,
    async send(mail) {
      const message = {
        to: mail.to,
        subject: mail.subject,
        text: plainText(mail),
        html: html(mail),
      }
      if (config.transport === 'log') {
        // Development without SMTP: the mail goes to the log, so its link can be followed.
        log.info(
          { event: 'mail.logged', subject: mail.subject, link: mail.link.url },
          `mail not sent (SMTP_URL is unset); it says:\n${message.text}`,
        )
        return
      }
      await (await transport()).sendMail(message)
      log.info({ event: 'mail.sent', subject: mail.subject }, 'mail sent')
    },
    close() {
      void transporter?.then((t) => t.close())
    },
  }
}

function plainText(mail: Mail): string {
  return [...mail.paragraphs, `${mail.link.label}:\n${mail.link.url}`, '— DocChat'].join('\n\n')
}

function html(mail: Mail): string {
  const paragraphs = mail.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')
  const url = escapeHtml(mail.link.url)
  return `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1f2937">
${paragraphs}
<p><a href="${url}">${escapeHtml(mail.link.label)}</a></p>
<p style="color: #6b7280; font-size: 0.9em">If the link does not open, copy this address into your browser:<br>${url}</p>
<p>— DocChat</p>
</body></html>`
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
