/**
 * The document viewer (`/dashboard/documents/{id}?passage={chunkId}`): loads the document and its
 * passages, then, for a PDF (or a Google file, which opens as its PDF export), opens the file
 * itself to render it page by page, on the cited passage's page; for anything else, or when the
 * file cannot be opened (Drive disconnected…), it shows the passages as they were read, with the
 * reason. `viewer.goToPage` moves through a PDF (the view scrolls there), `viewer.pageShown` follows
 * the person's own scrolling. Effects (`loadDocument`, `openPdf`) are injected
 * with provideViewerMachine(deps); the PDF handle is opaque here.
 */
import { assign, fromPromise, setup } from 'xstate'
import type { DocumentView, Passage } from '#contracts/documents.ts'
import { notProvided } from '#machines/shared/effects.ts'

/** A document opened by pdf.js, as far as the machine needs it (the view destroys it when it goes). */
export type PdfHandle = { numPages: number; destroy?: () => unknown }

export type ViewerInput = { documentId: string; passageId: string | null }

export type ViewerContext = ViewerInput & {
  view: DocumentView | null
  pdf: PdfHandle | null
  /** The PDF page in view (1-based). */
  page: number
  /** Counts the moves the person asked for (`viewer.goToPage`): the view scrolls on each, not on `pageShown`. */
  jumps: number
  /** Why the document could not be loaded (the server's sentence). */
  problem: string | null
  /** Why the file itself could not be opened: the passages are shown instead. */
  fileProblem: string | null
  /** How large a PDF's pages are drawn, from ZOOM_STEPS: 1 fits the pane's width. */
  zoom: number
}

export type ViewerEvent =
  | { type: 'viewer.goToPage'; page: number }
  | { type: 'viewer.pageShown'; page: number }
  | { type: 'viewer.retry' }
  /** A PDF's +/−: the next larger or smaller of ZOOM_STEPS. */
  | { type: 'viewer.zoom'; by: 1 | -1 }

export type ViewerDeps = {
  loadDocument: (id: string) => Promise<DocumentView>
  openPdf: (documentId: string) => Promise<PdfHandle>
}

/** The zooms a PDF's pages are drawn at: 1 fits the pane (a phone's 330 px page wants 2 or 3). */
export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const
export const MIN_ZOOM = 0.5
export const MAX_ZOOM = 3

/**
 * Types that open as PDFs: PDFs, and Google Docs and Slides (the server exports them as PDF). A
 * Google Sheet is not among them: its PDF export cuts the table into printed pages and Drive
 * refuses it for many sheets (400), so it shows as its tables, as DocChat read them.
 */
const PDF_TYPES = new Set([
  'application/pdf',
  'application/vnd.google-apps.document',
  'application/vnd.google-apps.presentation',
])

export const opensAsPdf = (mimeType: string) => PDF_TYPES.has(mimeType)

/** The passage the address names, if the document still has it (it may have been read again since). */
export function citedPassage(context: Pick<ViewerContext, 'view' | 'passageId'>): Passage | null {
  if (!context.view || !context.passageId) return null
  return context.view.passages.find((p) => p.id === context.passageId) ?? null
}

const messageOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback

export const viewerMachine = setup({
  types: {
    context: {} as ViewerContext,
    events: {} as ViewerEvent,
    input: {} as ViewerInput,
  },
  actors: {
    loadDocument: notProvided<DocumentView, { id: string }>('loadDocument'),
    openPdf: notProvided<PdfHandle, { id: string }>('openPdf'),
  },
  actions: {
    storeView: assign((_, params: { view: DocumentView }) => ({
      view: params.view,
      problem: null,
    })),
    storePdf: assign(({ context }, params: { pdf: PdfHandle }) => ({
      pdf: params.pdf,
      page: Math.min(Math.max(1, citedPassage(context)?.page ?? 1), params.pdf.numPages),
    })),
    storeProblem: assign((_, params: { problem: string }) => ({ problem: params.problem })),
    storeFileProblem: assign((_, params: { problem: string }) => ({ fileProblem: params.problem })),
    stepZoom: assign(({ context }, params: { by: 1 | -1 }) => {
      const at = (ZOOM_STEPS as readonly number[]).indexOf(context.zoom)
      const next = Math.min(Math.max(0, at + params.by), ZOOM_STEPS.length - 1)
      return { zoom: ZOOM_STEPS[next] ?? 1 }
    }),
    storePage: assign(({ context }, params: { page: number; jump: boolean }) => ({
      page: Math.min(Math.max(1, Math.round(params.page)), context.pdf?.numPages ?? 1),
      jumps: context.jumps + (params.jump ? 1 : 0),
    })),
  },
  guards: {
    isPdf: ({ context }) => context.view !== null && opensAsPdf(context.view.document.mimeType),
  },
}).createMachine({
  id: 'viewer',
  context: ({ input }) => ({
    ...input,
    view: null,
    pdf: null,
    page: 1,
    jumps: 0,
    problem: null,
    fileProblem: null,
    zoom: 1,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadDocument',
        input: ({ context }) => ({ id: context.documentId }),
        onDone: {
          target: 'opening',
          actions: { type: 'storeView', params: ({ event }) => ({ view: event.output }) },
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'storeProblem',
            params: ({ event }) => ({ problem: messageOf(event.error, 'Could not open the document.') }),
          },
        },
      },
    },
    opening: {
      always: [{ guard: 'isPdf', target: 'openingPdf' }, { target: 'reading' }],
    },
    openingPdf: {
      tags: ['busy'],
      invoke: {
        src: 'openPdf',
        input: ({ context }) => ({ id: context.view?.document.id ?? context.documentId }),
        onDone: {
          target: 'readingPdf',
          actions: { type: 'storePdf', params: ({ event }) => ({ pdf: event.output }) },
        },
        onError: {
          target: 'reading',
          description: 'The file could not be opened: its passages, as they were read, stand in for it.',
          actions: {
            type: 'storeFileProblem',
            params: ({ event }) => ({ problem: messageOf(event.error, 'The file could not be opened.') }),
          },
        },
      },
    },
    readingPdf: {
      on: {
        'viewer.goToPage': {
          actions: { type: 'storePage', params: ({ event }) => ({ page: event.page, jump: true }) },
        },
        'viewer.zoom': {
          actions: { type: 'stepZoom', params: ({ event }) => ({ by: event.by }) },
        },
        'viewer.pageShown': {
          description: 'The person scrolled to another page: it is the one in view, with no jump.',
          actions: { type: 'storePage', params: ({ event }) => ({ page: event.page, jump: false }) },
        },
      },
    },
    reading: {
      description: 'The passages in reading order, the cited one highlighted.',
    },
    failed: {
      on: { 'viewer.retry': { target: 'loading' } },
    },
  },
})

export function provideViewerMachine(deps: ViewerDeps) {
  return viewerMachine.provide({
    actors: {
      loadDocument: fromPromise(({ input }: { input: { id: string } }) => deps.loadDocument(input.id)),
      openPdf: fromPromise(({ input }: { input: { id: string } }) => deps.openPdf(input.id)),
    },
  })
}
