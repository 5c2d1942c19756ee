/** What the assistants machines' tests share: an assistant as the server answers it. */
import { type Assistant, DEFAULT_FALLBACK_ANSWER } from '#contracts/assistants.ts'
import { DEFAULT_BUDGETS, DEFAULT_BUSY_MESSAGE, DEFAULT_RETENTION_DAYS } from '#contracts/publishing.ts'

export const HR_ID = '0b8a4a50-7b1d-4bd0-9b54-8d6a2c4f1e11'

export function assistant(fields: Partial<Assistant> = {}): Assistant {
  return {
    _id: HR_ID,
    name: 'HR policies',
    description: 'Answers from the HR folder',
    instructions: 'Be friendly.',
    knowledge: {
      documentIds: [],
      folderIds: ['folder-hr'],
      documents: [],
      folders: [{ id: 'folder-hr', name: 'HR', missing: false, documentCount: 3 }],
    },
    starterQuestions: ['How many days off do I get?'],
    answerPolicy: 'documents-only',
    fallbackAnswer: DEFAULT_FALLBACK_ANSWER,
    temperature: null,
    maxAnswerTokens: null,
    model: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    published: false,
    allowedOrigins: [],
    publicPage: true,
    allowIndexing: false,
    showSourceNames: true,
    busyMessage: DEFAULT_BUSY_MESSAGE,
    privacyNotice: '',
    budgets: DEFAULT_BUDGETS,
    requireChallenge: false,
    retentionDays: DEFAULT_RETENTION_DAYS,
    publicId: null,
    hasIdentitySecret: false,
    ...fields,
  }
}
