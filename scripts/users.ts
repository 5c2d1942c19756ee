/**
 * The operator's command line (D79), against the database the environment configures (the same
 * settings as `npm start`: DATABASE_URL, DATA_DIR, APP_SECRET, PUBLIC_URL, Google's):
 *
 *   npm run users -- list
 *   npm run users -- disable <email>     no sign-in; every session ends at once, on every instance
 *   npm run users -- enable <email>
 *   npm run users -- delete <email>      the account and everything it holds (its Google grant revoked)
 *   npm run users -- reset-link <email>  prints a password reset link (30 minutes, single use)
 *   npm run users -- usage <email>       the last 30 days' tokens and answers (app, API, published) and this month's,
 *                                        also per API key and per assistant
 *
 * With the embedded database the server must be stopped first (one process per data directory);
 * with PostgreSQL it may run, and a disabled account's sessions end on every instance at once.
 */
import { USAGE_DAYS_DEFAULT, type UsageBySource, type UsageReport } from '../contracts/usage.ts'
import { buildApp } from '../server/app.ts'
import { ConfigError, loadConfig } from '../server/config.ts'
import { DataDirLockedError } from '../server/db/data-dir-lock.ts'

const USAGE = `usage: npm run users -- list | disable <email> | enable <email> | delete <email> | reset-link <email> | usage <email>`

const figures = (s: UsageBySource) =>
  [s.app.tokens, s.app.answers, s.api.tokens, s.api.answers, s.published.tokens, s.published.answers].map(
    String,
  )

/**
 * One line a day, oldest first, tab-separated, then this month's totals (D126), then this month's
 * figures per API key and per assistant, most tokens first (D134).
 */
export function usageLines(email: string, report: UsageReport): string[] {
  const header = [
    'day',
    'app tokens',
    'app answers',
    'api tokens',
    'api answers',
    'published tokens',
    'published answers',
  ]
  const limit = report.tokensPerDay > 0 ? `${report.tokensPerDay} tokens a day` : 'no daily limit'
  return [
    `Usage of ${email}, the last ${report.days.length} days (UTC; ${limit}):`,
    header.join('\t'),
    ...report.days.map((d) => [d.day, ...figures(d.sources)].join('\t')),
    [report.month.month, ...figures(report.month.sources)].join('\t'),
    `This month per API key:`,
    ['key', 'prefix', 'tokens', 'answers'].join('\t'),
    ...orNone(
      report.month.keys.map((k) =>
        [k.name ?? '(deleted key)', k.prefix ?? '', k.tokens, k.answers].join('\t'),
      ),
    ),
    `This month per assistant:`,
    ['assistant', 'tokens', 'answers'].join('\t'),
    ...orNone(
      report.month.assistants.map((a) => [a.name ?? '(deleted assistant)', a.tokens, a.answers].join('\t')),
    ),
  ]
}

const orNone = (lines: string[]) => (lines.length > 0 ? lines : ['(none)'])

export async function runUsersCommand(
  args: string[],
  env: Record<string, string | undefined> = process.env,
  out: (line: string) => void = console.log,
): Promise<number> {
  const [command, email] = args
  const needsEmail = ['disable', 'enable', 'delete', 'reset-link', 'usage']
  if (command !== 'list' && !(command && needsEmail.includes(command) && email)) {
    out(USAGE)
    return 2
  }
  const app = await buildApp(loadConfig(env), { logger: false })
  try {
    const { account } = app
    if (command === 'list') {
      const all = await account.list()
      out(['email', 'created', 'status', 'sign-in'].join('\t'))
      for (const user of all) {
        const status = user.disabledAt ? 'disabled' : user.emailConfirmationPending ? 'unconfirmed' : 'active'
        const ways = [user.passwordHash ? 'password' : null, user.googleSubject ? 'google' : null].filter(
          Boolean,
        )
        out([user.email, user.createdAt.toISOString().slice(0, 10), status, ways.join('+')].join('\t'))
      }
      out(`${all.length} account${all.length === 1 ? '' : 's'}`)
      return 0
    }
    const user = await account.findByEmail(email ?? '')
    if (!user) {
      out(`No account with the email ${email}.`)
      return 1
    }
    switch (command) {
      case 'disable': {
        const ended = await account.disable(user)
        out(
          `${user.email} is disabled: it cannot sign in, and ${ended} session${ended === 1 ? '' : 's'} ended.`,
        )
        break
      }
      case 'enable':
        await account.enable(user)
        out(`${user.email} may sign in again.`)
        break
      case 'delete':
        await account.delete(user)
        out(`${user.email} is deleted, with everything it held.`)
        break
      case 'reset-link':
        out(`Reset link for ${user.email} (single use, 30 minutes):`)
        out(await account.resetLink(user))
        break
      case 'usage':
        for (const line of usageLines(user.email, await app.usage.report(user.id, USAGE_DAYS_DEFAULT)))
          out(line)
        break
    }
    return 0
  } finally {
    await app.close()
  }
}

if (import.meta.main) {
  try {
    process.exitCode = await runUsersCommand(process.argv.slice(2))
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DataDirLockedError) {
      console.error(
        error instanceof DataDirLockedError
          ? `${error.message}\nStop the server first: the embedded database allows one process at a time.`
          : error.message,
      )
      process.exitCode = 1
    } else throw error
  }
}
