/**
 * Bundle weight as a browser meets it: real Chromium opens /login and /dashboard (signed in) on
 * the built app and records every JavaScript file it loads; sizes are gzip -9 of those files.
 * Targets: /login <= 135 KB gz; the whole app (every JS file in dist/) <= 200 KB gz, pdf.js (the
 * viewer's renderer, loaded on the first PDF, D72) reported apart.
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
  const total = sizeOf(scripts.filter((f) => f.endsWith('.js') && !isPdfJs(f)))
  const pdfJs = sizeOf(scripts.filter(isPdfJs))
  const sum = (files: string[]) => files.reduce((s, f) => s + gz(path.join(DIST, f)), 0)
  console.log('| page | JS files | gzip | target |')
  console.log('|---|---:|---:|---:|')
  console.log(`| /login | ${login.length} | ${kb(sum(login))} | <= 135 KB |`)
  console.log(`| /dashboard (signed in) | ${dashboard.length} | ${kb(sum(dashboard))} | |`)
  console.log(`| whole app (dist/assets/*.js, pdf.js apart) | | ${kb(total)} | <= 200 KB |`)
  console.log(`| pdf.js and its worker (the viewer, on the first PDF) | | ${kb(pdfJs)} | |`)
} finally {
  await app.stop()
}
