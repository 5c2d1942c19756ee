/**
 * Bundle weight as a browser meets it: real Chromium opens /login and /dashboard (signed in) on
 * the built app and records every JavaScript file it loads; sizes are gzip -9 of those files.
 * Targets: /login <= 135 KB gz; the whole app (every JS file in dist/) <= 200 KB gz, pdf.js (the
 * viewer's renderer, loaded on the first PDF, D72) reported apart. The public chat (public.html,
 * D120) <= 60 KB gz for everything its page loads (scripts, their static imports, CSS; altcha
 * apart: only for an assistant that asks for a challenge) and embed.js <= 3 KB gz, read from dist/.
 * Usage: npm run bench:bundle   (builds first)
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { CHROMIUM_ARGS, chromiumPath } from '../tests/e2e/chromium.ts'
import { ROOT, signedInCookie, startApp } from './lib.ts'

const DIST = path.join(ROOT, 'dist')
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length

/** What an HTML page of dist/ loads before anything is pressed: its scripts, their static imports, CSS. */
export function staticallyLoaded(html: string): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    if (!file.endsWith('.js')) return
    const code = readFileSync(path.join(DIST, file), 'utf8')
    for (const [, name] of code.matchAll(/from\s*"\.\/([\w.-]+\.js)"/g)) visit(`assets/${name}`)
  }
  const page = readFileSync(path.join(DIST, html), 'utf8')
  for (const [, file] of page.matchAll(/(?:src|href)="\/(assets\/[\w.-]+\.(?:js|css))"/g)) visit(file ?? '')
  return [...seen]
}

async function scriptsLoaded(url: string, cookie?: string): Promise<string[]> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })
  try {
    const context = await browser.newContext()
    if (cookie) {
      const origin = new URL(url).origin
      await context.addCookies(
        cookie.split('; ').map((pair) => {
          const [name = '', value = ''] = pair.split('=')
          return { name, value, url: origin }
        }),
      )
    }
    const page = await context.newPage()
    const seen = new Set<string>()
    page.on('response', (r) => {
      if (r.url().endsWith('.js')) seen.add(new URL(r.url()).pathname)
    })
    await page.goto(url, { waitUntil: 'networkidle' })
    return [...seen]
  } finally {
    await browser.close()
  }
}

const app = await startApp(Number(process.env.BENCH_PORT ?? 3303))
try {
  const cookie = await signedInCookie(app.url)
  const login = await scriptsLoaded(`${app.url}/login`)
  const dashboard = await scriptsLoaded(`${app.url}/dashboard`, cookie)
  const scripts = readdirSync(path.join(DIST, 'assets')).filter((f) => /\.m?js$/.test(f))
  // pdf.js (the viewer's renderer and its worker, D72) loads only when a PDF is opened: reported
  // on its own line, outside the whole-app target that predates it.
  const isPdfJs = (f: string) => /^pdf(\.worker\.min)?-[\w-]+\.m?js$/.test(f)
  const sizeOf = (files: string[]) => files.reduce((sum, f) => sum + gz(path.join(DIST, 'assets', f)), 0)
  // The visitor's page is a build of its own (D120): its script and altcha are reported below.
  const isAltcha = (f: string) => /^altcha-[\w-]+\.js$/.test(f)
  const isPublic = (f: string) => /^public-[\w-]+\.js$/.test(f) || isAltcha(f)
  const total = sizeOf(scripts.filter((f) => f.endsWith('.js') && !isPdfJs(f) && !isPublic(f)))
  const pdfJs = sizeOf(scripts.filter(isPdfJs))
  const sum = (files: string[]) => files.reduce((s, f) => s + gz(path.join(DIST, f)), 0)
  console.log('| page | JS files | gzip | target |')
  console.log('|---|---:|---:|---:|')
  console.log(`| /login | ${login.length} | ${kb(sum(login))} | <= 135 KB |`)
  console.log(`| /dashboard (signed in) | ${dashboard.length} | ${kb(sum(dashboard))} | |`)
  console.log(
    `| whole app (dist/assets/*.js, pdf.js and the public chat apart) | | ${kb(total)} | <= 200 KB |`,
  )
  console.log(`| pdf.js and its worker (the viewer, on the first PDF) | | ${kb(pdfJs)} | |`)
  const publicPage = staticallyLoaded('public.html')
  const altcha = scripts.filter(isAltcha)
  console.log(
    `| public chat (public.html: JS + CSS + the page) | ${publicPage.length} | ${kb(sum(publicPage) + gz(path.join(DIST, 'public.html')))} | <= 60 KB |`,
  )
  console.log(`| altcha (only for an assistant that asks for a challenge) | | ${kb(sizeOf(altcha))} | |`)
  console.log(`| embed.js | 1 | ${kb(gz(path.join(DIST, 'embed.js')))} | <= 3 KB |`)
} finally {
  await app.stop()
}
