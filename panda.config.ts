import { defineConfig } from '@pandacss/dev'

export default defineConfig({
  preflight: true,
  include: ['./src/**/*.{ts,tsx}'],
  exclude: [],
  jsxFramework: 'react',
  outdir: 'styled-system',
  theme: {
    extend: {
      tokens: {
        colors: {
          brand: {
            50: { value: '#eef4ff' },
            100: { value: '#dbe6fe' },
            500: { value: '#3b6cf6' },
            600: { value: '#2852d8' },
            700: { value: '#1f40ad' },
          },
        },
        fonts: {
          body: { value: "Inter, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" },
        },
      },
      semanticTokens: {
        shadows: {
          focusRing: { value: '0 0 0 3px {colors.brand.100}' },
        },
        colors: {
          bg: { value: '#f6f7fb' },
          surface: { value: '#ffffff' },
          border: { value: '#e3e6ee' },
          text: { value: '#1c2233' },
          muted: { value: '#5b6478' },
          surfaceMuted: { value: '#f1f3f8' },
          borderStrong: { value: '#c9cedb' },
          accent: { value: '{colors.brand.600}' },
          accentHover: { value: '{colors.brand.700}' },
          danger: { value: '#b42318' },
          dangerBg: { value: '#fef3f2' },
          dangerBorder: { value: '#fecdca' },
        },
      },
    },
  },
  globalCss: {
    body: {
      bg: 'bg',
      color: 'text',
      fontFamily: 'body',
      lineHeight: '1.5',
      WebkitFontSmoothing: 'antialiased',
    },
    ':focus-visible': { outline: '2px solid', outlineColor: 'brand.500', outlineOffset: '2px' },
  },
})
