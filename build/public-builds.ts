/**
 * What visitors load (issue 37, D120) is built apart from the app, so that it shares no chunk
 * with the dashboard and the dashboard's files are the same with or without it: public.html (the
 * public page and the widget's iframe) as a build of its own, and embed.js as one classic script
 * (an IIFE, no module, no chunks) a host page loads with `<script async>`. Both are written to the
 * app's outDir once the app's bundle is written and before it is precompressed (closeBundle runs
 * after every writeBundle).
 */
import { build, type Plugin } from 'vite'

export const PUBLIC_PAGE = 'public.html'
export const EMBED_ENTRY = 'src/embed/embed.ts'

export function publicBuilds(): Plugin {
  let outDir = 'dist'
  return {
    name: 'docchat:public-builds',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    async writeBundle() {
      const common = { configFile: false as const, logLevel: 'warn' as const, publicDir: false as const }
      await build({
        ...common,
        build: {
          outDir,
          emptyOutDir: false,
          sourcemap: true,
          target: 'es2022',
          modulePreload: { polyfill: false },
          rolldownOptions: { input: { public: PUBLIC_PAGE } },
        },
      })
      await build({
        ...common,
        build: {
          outDir,
          emptyOutDir: false,
          target: 'es2020',
          sourcemap: false,
          minify: true,
          lib: { entry: EMBED_ENTRY, formats: ['iife'], name: 'DocChatEmbed', fileName: () => 'embed.js' },
        },
      })
    },
  }
}
