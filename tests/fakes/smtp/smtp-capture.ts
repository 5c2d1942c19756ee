/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps every mail it receives,
 * parsed (mailparser), so tests read what DocChat really sent over the wire: the server's
 * nodemailer talks to it through SMTP_URL as it would to a mail provider.
 */
import type { AddressInfo } from 'node:net'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export type CapturedMail = { to: string[]; from: string; subject: string; text: string; html: string }

export type SmtpCapture = {
  /** smtp://127.0.0.1:PORT, for SMTP_URL. */
  url: string
  port: number
  messages: CapturedMail[]
  /** Until `release()`, mails are read but not accepted: the sender waits (tests of what does not wait for mail). */
  hold: () => { release: () => void }
  /** The first mail (already here or still to come) that `match` accepts; throws after `timeoutMs`. */
  waitFor: (match: (mail: CapturedMail) => boolean, timeoutMs?: number) => Promise<CapturedMail>
  close: () => Promise<void>
}

export async function createSmtpCapture(
  options: { port?: number; host?: string } = {},
): Promise<SmtpCapture> {
  const messages: CapturedMail[] = []
  const waiting = new Set<() => void>()
  let held: Promise<void> = Promise.resolve()
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        async (parsed) => {
          await held
          messages.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          })
          for (const wake of waiting) wake()
          callback()
        },
        (error: Error) => callback(error),
      )
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const port = (server.server.address() as AddressInfo).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    hold() {
      let release = () => {}
      held = new Promise((resolve) => {
        release = resolve
      })
      return { release }
    },
    waitFor(match, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match)
          if (!found) return false
          waiting.delete(check)
          clearTimeout(timer)
          resolve(found)
          return true
        }
        const timer = setTimeout(() => {
          waiting.delete(check)
          reject(new Error(`No such mail within ${timeoutMs} ms (${messages.length} received)`))
        }, timeoutMs)
        if (!check()) waiting.add(check)
      })
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** The first address on its own line of a mail's text that starts with `prefix` (the link a mail carries). */
export function linkIn(mail: CapturedMail, prefix: string): string {
  const found = mail.text.split(/\s+/).find((word) => word.startsWith(prefix))
  if (!found) throw new Error(`No ${prefix}… link in "${mail.subject}"`)
  return found
}
