/**
 * Retrieval in the languages people write (D82) and with their typos (D83), on in-memory PGlite
 * (and PostgreSQL under `npm run test:postgres`): German and French documents found by inflected
 * forms, a library in three languages, a document whose sections are in two, statistics kept per
 * language, the language pass over passages indexed before languages were detected, misspelled
 * words corrected against the person's own vocabulary only.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createSearch } from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import { documentChunks, documents } from '#server/db/schema.ts'
import type { IndexDocumentInput } from '#server/documents/index/index-document.ts'
import { detectPendingLanguages } from '#server/documents/index/language-pass.ts'
import { removeDocument } from '#server/documents/index/passage-writes-repository.ts'
import { indexText, languageStatistics } from '../support/document-helpers.ts'
import { buildTestApp, register, uniqueEmail } from '../support/helper.ts'

let app: App

beforeAll(async () => {
  app = await buildTestApp()
})
afterAll(async () => {
  await app.close()
})

const newUser = async () => (await register(app, uniqueEmail('languages')))._id

const doc = (userId: string, externalId: string, text: string, over: Partial<IndexDocumentInput> = {}) =>
  indexText(app.db, userId, externalId, text, over)

const search = (userId: string, question: string) => createSearch(app.db)(userId, question, 6)
const names = async (userId: string, question: string) =>
  (await search(userId, question)).passages.map((p) => p.documentName)

const GERMAN = [
  'Mit dem Befehl rm wird eine Datei endgültig gelöscht. Gelöschte Dateien landen nicht im',
  'Papierkorb und lassen sich später nicht wiederherstellen. Wer ein Verzeichnis samt Inhalt',
  'entfernen will, verwendet zusätzlich die Option -r; die Option -i fragt vor jedem Schritt nach.',
].join(' ')
const FRENCH = [
  "La commande cp copie un fichier vers un autre emplacement. Avec l'option -r, elle copie aussi",
  'les répertoires et tout leur contenu. Les fichiers déjà présents sont remplacés sans avertissement,',
  "sauf si l'on ajoute l'option -i, qui demande une confirmation avant chaque remplacement.",
].join(' ')
const ENGLISH = [
  'To reset your password, open Settings and choose Security. Enter the current password once and',
  'the new password twice; it must be at least twelve characters long. A temporary password sent',
  'by the help desk expires after one day and has to be changed at the next sign-in.',
].join(' ')

test('a German document is found by inflected forms of its words, and indexed as German', async () => {
  const user = await newUser()
  await doc(user, 'loeschen', GERMAN)
  await doc(
    user,
    'drucken',
    'Der Befehl lp schickt Druckaufträge an den Standarddrucker des Systems. '.repeat(3),
  )
  const found = await search(user, 'Wie kann ich Dateien löschen?')
  expect(found.language).toBe('german')
  expect(found.passages[0]?.documentName).toBe('loeschen.txt')
  expect(found.passages[0]?.language).toBe('german')
  // "Dateien" and "Datei" are one word for the German stemmer, not for the English one.
  expect(found.terms).toContainEqual({ language: 'german', lexeme: 'datei' })
  expect(await names(user, 'Datei')).toEqual(['loeschen.txt'])
})

test('a French document is found by inflected forms of its words', async () => {
  const user = await newUser()
  await doc(user, 'copier', FRENCH)
  await doc(
    user,
    'imprimer',
    "La commande lp envoie des travaux d'impression à l'imprimante par défaut. ".repeat(3),
  )
  const found = await search(user, 'Comment remplacer un fichier existant ?')
  expect(found.language).toBe('french')
  expect(found.passages[0]?.documentName).toBe('copier.txt')
  expect(found.passages[0]?.language).toBe('french')
  // "remplacer" and "remplacés", "fichier" and "fichiers" share their French stems.
  expect(found.terms).toContainEqual({ language: 'french', lexeme: 'remplac' })
  expect(found.terms).toContainEqual({ language: 'french', lexeme: 'fichi' })
  expect(found.corrections).toEqual([])
})

test("a French question's own words (« comment », « les », « tous ») are not searched as its topic", async () => {
  const user = await newUser()
  await doc(
    user,
    'debut',
    "La commande head montre le début d'un fichier : par défaut ses dix premières lignes, ou autant de lignes que l'option -n en demande.",
  )
  // « comment » is rare in a library (here in one document), so as a searched word it would weigh
  // the most; « les » (stemmed « le », which the stop list drops) and « tous » are everywhere.
  await doc(
    user,
    'partage',
    'Ce guide explique comment afficher les fichiers partagés, comment les trier et comment les renommer : tous les fichiers sont gardés.',
  )
  await doc(user, 'imprimer', "La commande lp envoie les fichiers à l'imprimante par défaut. ".repeat(3))
  const found = await search(user, 'Comment afficher les premières lignes de tous les fichiers ?')
  expect(found.language).toBe('french')
  expect(found.passages[0]?.documentName).toBe('debut.txt')
  const searched = found.terms.map((t) => t.lexeme)
  expect(searched).toEqual(expect.arrayContaining(['affich', 'premi', 'lign', 'fichi']))
  for (const word of ['comment', 'le', 'tous']) expect(searched).not.toContain(word)
  // Written in capitals, at the start, they are still the question's own words.
  const shouted = await search(user, 'COMMENT afficher les premières lignes ?')
  expect(shouted.terms.map((t) => t.lexeme)).not.toContain('comment')
})

test('a question word weighs as much in the passages of one language as in those of another', async () => {
  const user = await newUser()
  const french = {
    head: "La commande head affiche le début d'un fichier : par défaut ses dix premières lignes. Avec l'option -n, elle affiche autant de lignes que demandé, et avec -c autant d'octets.",
    tail: "La commande tail affiche la fin d'un fichier : par défaut ses dix dernières lignes. Avec l'option -f, elle continue d'afficher les lignes ajoutées au fichier pendant qu'il grandit.",
    sort: "La commande sort trie les lignes d'un fichier texte et écrit le résultat sur la sortie standard. Les premières options règlent l'ordre : -r inverse, -n compare les nombres.",
    wc: "La commande wc compte les lignes, les mots et les octets d'un fichier. Avec -l, elle n'affiche que le nombre de lignes, ce qui suffit souvent dans un script.",
  }
  for (const [name, text] of Object.entries(french)) await doc(user, name, text)
  // « premières » is an English word too, held by one of the few English passages: rare among
  // them, common among the French ones. It is one word of the question, and weighs as one.
  await doc(
    user,
    'films',
    'Festival report: the premières of our three short films were held in Lyon this spring. Both evenings sold out within a day, and the director answered questions from the audience after each screening.',
  )
  await doc(
    user,
    'budget',
    'Budget notes: the travel costs for the spring festival came to four thousand euros, most of it for train tickets and two nights in a hotel near the station for the whole crew.',
  )
  await doc(
    user,
    'crew',
    'Crew list: the director, two camera operators, a sound engineer and an editor worked on every film this year; the editor also prepared the subtitles for the screenings abroad.',
  )
  const found = await search(user, 'Comment afficher les premières lignes ?')
  expect(found.terms).toContainEqual({ language: 'english', lexeme: 'premièr' })
  const ranked = found.passages.map((p) => p.documentName)
  expect(ranked[0]).toBe('head.txt')
  // Every French page about lines comes before the English note that shares one word.
  expect(ranked.slice(0, 4).sort()).toEqual(['head.txt', 'sort.txt', 'tail.txt', 'wc.txt'])
})

test('a library in three languages answers a question in each from the document in that language', async () => {
  const user = await newUser()
  await doc(user, 'loeschen', GERMAN)
  await doc(user, 'copier', FRENCH)
  await doc(user, 'password', ENGLISH)
  expect((await names(user, 'Lassen sich gelöschte Dateien wiederherstellen?'))[0]).toBe('loeschen.txt')
  expect((await names(user, 'Les fichiers présents sont-ils remplacés ?'))[0]).toBe('copier.txt')
  expect((await names(user, 'How long must a new password be?'))[0]).toBe('password.txt')
  // English stop words are not searched in German passages: "the" is not a German word here.
  const english = await search(user, 'How long must the new password be?')
  expect(english.terms.every((t) => t.lexeme !== 'the')).toBe(true)
})

test('a document whose sections are in two languages indexes each section in its own', async () => {
  const user = await newUser()
  const { documentId } = await doc(
    user,
    'handbook',
    `# Deleting files\n\n${ENGLISH}\n\n# Dateien löschen\n\n${GERMAN}`,
    {
      name: 'handbook.md',
      mimeType: 'text/markdown',
    },
  )
  const chunks = await app.db
    .select({ heading: documentChunks.heading, language: documentChunks.language })
    .from(documentChunks)
    .where(eq(documentChunks.documentId, documentId))
    .orderBy(documentChunks.ordinal)
  expect(chunks).toEqual([
    { heading: 'Deleting files', language: 'english' },
    { heading: 'Dateien löschen', language: 'german' },
  ])
  const [first] = (await search(user, 'Welche Option fragt vor dem Löschen nach?')).passages
  expect(first?.heading).toBe('Dateien löschen')
})

const statistics = (userId: string) => languageStatistics(app.db, userId)

test('the statistics per language match a recount after indexing, re-indexing and removing documents', async () => {
  const user = await newUser()
  await doc(user, 'loeschen', GERMAN)
  await doc(user, 'copier', FRENCH)
  await doc(user, 'password', ENGLISH)
  await doc(user, 'mixed', `# Deleting files\n\n${ENGLISH}\n\n# Dateien löschen\n\n${GERMAN}`, {
    mimeType: 'text/markdown',
  })
  let s = await statistics(user)
  expect(s.terms).toEqual(s.termsRecount)
  expect(s.languages).toEqual(s.languagesRecount)
  expect(s.languages).toEqual([
    expect.objectContaining({ language: 'english', document_count: 2 }),
    expect.objectContaining({ language: 'french', document_count: 1 }),
    expect.objectContaining({ language: 'german', document_count: 2 }),
  ])
  await doc(user, 'copier', GERMAN)
  expect(await removeDocument(app.db, { userId: user, source: 'test', externalId: 'mixed' })).toBe(true)
  s = await statistics(user)
  expect(s.terms).toEqual(s.termsRecount)
  expect(s.languages).toEqual(s.languagesRecount)
  expect(s.languages.map((l) => (l as { language: string }).language)).toEqual(['english', 'german'])
})

test('passages indexed before languages were detected are re-indexed in theirs by the language pass', async () => {
  const user = await newUser()
  // As migration 0018 leaves a library: every passage English, its documents waiting from the first.
  const input = {
    userId: user,
    source: 'test',
    mimeType: 'text/plain',
    link: null,
    version: null,
    modifiedTime: null,
  }
  const written = await app.writer.write({
    document: { ...input, externalId: 'alt', name: 'alt.txt' },
    chunks: [{ ordinal: 0, page: null, heading: null, text: GERMAN, language: 'english' }],
  })
  if (!written) throw new Error('not written')
  const { documentId } = written
  await app.writer.write({
    document: { ...input, externalId: 'en', name: 'en.txt' },
    chunks: [{ ordinal: 0, page: null, heading: null, text: ENGLISH, language: 'english' }],
  })
  await app.db.update(documents).set({ languagesFrom: 0 }).where(eq(documents.userId, user))
  // Stemmed as English, "Verzeichnisse" is not "Verzeichnis": found only as a typo of it.
  expect((await search(user, 'Verzeichnisse')).corrections).toEqual([
    { from: 'Verzeichnisse', to: 'Verzeichnis' },
  ])

  const result = await detectPendingLanguages(app.db, app.writer)

  expect(result.documents).toBeGreaterThanOrEqual(2)
  expect(result.passages).toBeGreaterThanOrEqual(1)
  const [chunk] = await app.db
    .select({ language: documentChunks.language })
    .from(documentChunks)
    .where(eq(documentChunks.documentId, documentId))
  expect(chunk?.language).toBe('german')
  const after = await search(user, 'Verzeichnisse')
  expect(after.corrections).toEqual([])
  expect(after.passages.map((p) => p.documentName)).toEqual(['alt.txt'])
  const s = await statistics(user)
  expect(s.terms).toEqual(s.termsRecount)
  expect(s.languages).toEqual(s.languagesRecount)
  const pending = await app.db.select().from(documents).where(eq(documents.userId, user))
  expect(pending.map((d) => d.languagesFrom)).toEqual([null, null])
})

test('a misspelled word finds its passage, weighted below an exact word, and the correction is reported', async () => {
  const user = await newUser()
  await doc(user, 'password', ENGLISH)
  await doc(user, 'other', 'The canteen serves lunch from noon until two; the menu changes every Monday.')
  const found = await search(user, 'How do I reset my e-mail pasword?')
  expect(found.passages[0]?.documentName).toBe('password.txt')
  expect(found.corrections).toEqual([{ from: 'pasword', to: 'password' }])
  // A swap of two letters is one typo; the written form comes from the document.
  expect((await search(user, 'tempoarry pasword')).corrections).toEqual([
    { from: 'tempoarry', to: 'temporary' },
    { from: 'pasword', to: 'password' },
  ])
  // The same question spelled right ranks the passage higher.
  const exact = await search(user, 'How do I reset my e-mail password?')
  expect(exact.corrections).toEqual([])
  const score = (r: typeof found) => r.passages.find((p) => p.documentName === 'password.txt')?.rank ?? 0
  expect(score(exact)).toBeGreaterThanOrEqual(score(found))
  // German words are corrected against German words.
  await doc(user, 'loeschen', GERMAN)
  const german = await search(user, 'Wie lösche ich eine Dattei?')
  expect(german.corrections).toEqual([{ from: 'Dattei', to: 'Datei' }])
  expect(german.passages[0]?.documentName).toBe('loeschen.txt')
})

test('a word the library contains is never corrected, even when it looks like a typo', async () => {
  const user = await newUser()
  await doc(user, 'password', ENGLISH)
  await doc(
    user,
    'typo',
    'Our old wiki spelled it pasword everywhere, and the pasword page is kept as it was.',
  )
  const found = await search(user, 'Where is the pasword page?')
  expect(found.corrections).toEqual([])
  expect(found.passages[0]?.documentName).toBe('typo.txt')
  // Short words, codes and words with digits are left as typed.
  expect((await search(user, 'pws A1B2C3 x9pasword')).corrections).toEqual([])
})

test('a word is never corrected to one of fewer than four letters, not even by two letters swapped', async () => {
  const user = await newUser()
  await doc(user, 'greeting', 'Say hi to everyone in the harbour office when you arrive in the morning.')
  // "hides" with two letters swapped is "hieds", which English stems to "hi".
  const found = await search(user, 'Which office hides the harbour key?')
  expect(found.corrections).toEqual([])
  expect(found.terms.map((t) => t.lexeme)).not.toContain('hi')
})

test("a correction never comes from another person's vocabulary", async () => {
  const alice = await newUser()
  const bob = await newUser()
  await doc(alice, 'password', ENGLISH)
  await doc(bob, 'notes', 'The garden shed is temporarily closed; the key hangs behind the calendar.')
  // Alice's "temporary" is one edit from "temporarry", Bob's own "temporarily" two: Bob only ever sees his.
  const found = await search(bob, 'Why is the shed temporarry closed?')
  expect(found.corrections).toEqual([{ from: 'temporarry', to: 'temporarily' }])
  expect(found.passages.map((p) => p.documentName)).toEqual(['notes.txt'])
  expect((await search(alice, 'temporarry')).corrections).toEqual([{ from: 'temporarry', to: 'temporary' }])
  const carol = await newUser()
  await doc(carol, 'lunch', 'The canteen serves lunch from noon until two.')
  const nothing = await search(carol, 'How do I reset my pasword?')
  expect(nothing.corrections).toEqual([])
  expect(nothing.passages).toEqual([])
})
