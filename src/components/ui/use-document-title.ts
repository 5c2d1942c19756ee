import { useEffect } from 'react'

/** WCAG 2.4.2: every view names itself in the tab and window title ('Sign In · DocChat'). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · DocChat`
  }, [title])
}
