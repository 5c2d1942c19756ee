import { Component, type ReactNode } from 'react'

/** What a fallback gets: the error, and `retry` to render the children again. */
export type Failure = { error: unknown; retry: () => void }

type ErrorBoundaryProps = {
  children: ReactNode
  fallback: (failure: Failure) => ReactNode
  /** Called once per error caught, to log it. */
  onError?: (error: unknown) => void
  /** Called before the children render again: a lazy component makes a fresh import here. */
  onRetry?: () => void
}

type ErrorBoundaryState = { failed: false } | { failed: true; error: unknown }

/**
 * Catches what its children throw while rendering (a bug, or a lazy chunk that did not load) and
 * shows `fallback` instead of leaving the page blank. React has boundaries only as classes.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false }

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { failed: true, error }
  }

  override componentDidCatch(error: unknown) {
    this.props.onError?.(error)
  }

  retry = () => {
    this.props.onRetry?.()
    this.setState({ failed: false })
  }

  override render() {
    if (!this.state.failed) return this.props.children
    return this.props.fallback({ error: this.state.error, retry: this.retry })
  }
}
