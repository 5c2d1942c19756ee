import { useEffect } from 'react'

/**
 * WCAG 2.4.2: every view names itself in the tab and window title ('Sign In · DocChat'); null
 * leaves the title to a view inside it (the document viewer names its document).
 */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (title !== null) document.title = `${title} · DocChat`
  }, [title])
}
