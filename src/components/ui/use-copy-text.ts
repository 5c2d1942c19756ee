/** Copies text to the clipboard and says 'Copied' for COPY_CONFIRMATION_MS (product §2, §9). */
import { useEffect, useRef, useState } from 'react'

export const COPY_CONFIRMATION_MS = 1500

export function useCopyText(text: string) {
  const [copied, setCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  // A bubble can leave the screen while it says 'Copied' (new chat): drop its timer with it.
  useEffect(() => () => clearTimeout(timer.current), [])
  return {
    copied,
    async copy() {
      try {
        await navigator.clipboard.writeText(text)
      } catch {
        return // No clipboard (permission, insecure origin): nothing was copied, so nothing is said.
      }
      clearTimeout(timer.current)
      setCopied(true)
      timer.current = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS)
    },
  }
}
