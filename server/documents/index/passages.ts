/** What retrieval hands the assistant: a ranked passage of one of the user's own documents. */
export type Passage = {
  chunkId: string
  documentId: string
  documentName: string
  /** 1-based page for PDFs, null otherwise. */
  page: number | null
  /** The nearest heading above the passage, when the document has headings. */
  heading: string | null
  link: string | null
  text: string
  /** The text search configuration it is indexed in ('english', 'german', 'simple'…, D82). */
  language: string
  rank: number
  /** Part of a document given whole (D71), not ranked against the question. */
  whole?: boolean
}

/** A ranked passage as the search queries select it (snake_case columns). */
export type PassageRow = {
  chunk_id: string
  document_id: string
  document_name: string
  page: number | null
  heading: string | null
  link: string | null
  text: string
  language: string
  rank: number
}

export function toPassage(r: PassageRow): Passage {
  return {
    chunkId: r.chunk_id,
    documentId: r.document_id,
    documentName: r.document_name,
    page: r.page,
    heading: r.heading,
    link: r.link,
    text: r.text,
    language: r.language,
    rank: Number(r.rank),
  }
}

/** A previous turn of this conversation, oldest first. */
export type Turn = { isUser: boolean; content: string }

export function passageLabel(p: Pick<Passage, 'documentName' | 'page'>): string {
  return p.page ? `${p.documentName}, p. ${p.page}` : p.documentName
}
