import { defineConfig } from '@pandacss/dev'

/**
 * A colour for light and for dark screens. Dark follows the system (prefers-color-scheme) unless
 * the person chose in Settings → Appearance (D136): `data-theme` on <html> then wins, by
 * specificity (the system's rule is on `:where(:root)`, which weighs nothing).
 */
const scheme = (light: string, dark: string) => ({
  value: { base: light, _osDark: dark, _dark: dark, _light: light },
})

export default defineConfig({
  preflight: true,
  include: ['./src/**/*.{ts,tsx}'],
  exclude: [],
  jsxFramework: 'react',
  outdir: 'styled-system',
  // The person's choice (src/lib/theme.ts) is an attribute on <html>, not Panda's default class.
  conditions: { extend: { dark: '[data-theme=dark] &', light: '[data-theme=light] &' } },
  theme: {
    extend: {
      tokens: {
        fonts: {
          body: { value: "Inter, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" },
        },
      },
      // Every colour the views name is semantic, so dark mode is this one table (D46).
      // The brand scale is semantic too: views that tint with brand.50/brand.700 flip with it.
      semanticTokens: {
        shadows: {
          // 3 px at the brand's mid tone: ≥ 3:1 against the surface in both schemes (WCAG 2.4.13).
          focusRing: { value: '0 0 0 3px {colors.focus}' },
        },
        colors: {
          brand: {
            50: scheme('#eef4ff', '#1b2647'),
            100: scheme('#dbe6fe', '#263463'),
            500: scheme('#3b6cf6', '#7aa2ff'),
            600: scheme('#2852d8', '#8fb0ff'),
            700: scheme('#1f40ad', '#c9d8ff'),
          },
          bg: scheme('#f6f7fb', '#0e1220'),
          surface: scheme('#ffffff', '#171c2c'),
          border: scheme('#e3e6ee', '#2c3348'),
          text: scheme('#1c2233', '#e7eaf3'),
          muted: scheme('#5b6478', '#a6aec2'),
          surfaceMuted: scheme('#f1f3f8', '#21283b'),
          borderStrong: scheme('#c9cedb', '#434c66'),
          accent: { value: '{colors.brand.600}' },
          accentHover: { value: '{colors.brand.700}' },
          /** Text and icons drawn on `accent` (primary buttons, my own chat bubbles). */
          onAccent: scheme('#ffffff', '#0b1020'),
          focus: { value: '{colors.brand.500}' },
          danger: scheme('#b42318', '#ff9b8f'),
          dangerBg: scheme('#fef3f2', '#3a1714'),
          dangerBorder: scheme('#fecdca', '#6e2a22'),
        },
      },
    },
  },
  globalCss: {
    html: { colorScheme: 'light dark' },
    // Scrollbars and form controls follow the chosen scheme too.
    'html[data-theme=dark]': { colorScheme: 'dark' },
    'html[data-theme=light]': { colorScheme: 'light' },
    body: {
      bg: 'bg',
      color: 'text',
      fontFamily: 'body',
      lineHeight: '1.5',
      WebkitFontSmoothing: 'antialiased',
    },
    ':focus-visible': { outline: '2px solid', outlineColor: 'focus', outlineOffset: '2px' },
    // WCAG 2.3.3: no pulsing or sliding for people who asked their system for less motion.
    '@media (prefers-reduced-motion: reduce)': {
      '*, *::before, *::after': {
        animationDuration: '0.01ms !important',
        animationIterationCount: '1 !important',
        transitionDuration: '0.01ms !important',
        scrollBehavior: 'auto !important',
      },
    },
  },
})
