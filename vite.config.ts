import { defineConfig } from 'vite'
import { precompress } from './build/precompress.ts'

// The API runs on its own port in development (`npm run serve`); Vite proxies /api to it so the
// browser sees one origin, exactly as in production where one process serves both.
export default defineConfig({
  build: { outDir: 'dist', sourcemap: true, target: 'es2022' },
  plugins: [precompress()],
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${process.env.PORT ?? 3000}`, changeOrigin: false } },
  },
})
