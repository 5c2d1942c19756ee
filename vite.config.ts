import { defineConfig } from 'vite'
import { precompress } from './build/precompress.ts'
import { publicBuilds } from './build/public-builds.ts'

/**
 * Libraries written for React Server Components (TanStack Form, say) open their modules with
 * "use client". A client-only bundle has no server components, so the directive means nothing
 * here and dropping it changes nothing, yet Rolldown warns about each such file in a boxed
 * block that reads like a failure. Only that notice, for "use client" in a dependency, is dropped;
 * every other warning (another directive, one of our own files) still prints.
 */
function isUseClientNotice(log: { code?: string; message: string; id?: string }): boolean {
  return (
    log.code === 'MODULE_LEVEL_DIRECTIVE' &&
    log.message.includes('"use client"') &&
    /[\\/]node_modules[\\/]/.test(log.id ?? '')
  )
}

// The API runs on its own port in development (`npm run serve`); Vite proxies /api to it so the
// browser sees one origin, exactly as in production where one process serves both.
export default defineConfig({
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    // No modulepreload polyfill (for Safari before 17 and Firefox before 115): a lazy chunk's
    // imports are the first script and its CSS, already loaded, so nothing is preloaded ahead
    // anyway, and the polyfill was ~0.2 KB gz of /login's script.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Every module the entry loads stays in the entry's file (D139). Left to itself, Rolldown
        // puts what the entry shares with two or more on-demand files (React, the styles, the
        // Button) in a common file of its own, which /login then loads as a second script.
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
      },
      onLog(level, log, handler) {
        if (isUseClientNotice(log)) return
        handler(level, log)
      },
    },
  },
  // public.html and embed.js are built apart (D120), before the whole of dist/ is precompressed.
  plugins: [publicBuilds(), precompress()],
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${process.env.PORT ?? 3000}`, changeOrigin: false } },
  },
})
