/**
 * embed.js (issue 37, D120) is built apart from the app: one classic script (an IIFE, no module,
 * no chunks) a host page loads with `<script async>`, written to dist/embed.js once the app's
 * bundle is written and before it is precompressed (closeBundle runs after every writeBundle).
 */
import { build, type Plugin } from 'vite'

export const EMBED_ENTRY = 'src/embed/embed.ts'

export function embedScript(): Plugin {
  let outDir = 'dist'
  return {
    name: 'docchat:embed-script',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    async writeBundle() {
      await build({
        configFile: false,
        logLevel: 'warn',
        publicDir: false,
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
