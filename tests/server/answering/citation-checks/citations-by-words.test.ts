/**
 * Citations placed by their words (D141): a sentence with nothing else to check (no figure, date,
 * code, quotation or name) cited to a passage that holds almost none of its words, while another
 * passage given holds most of them, is repaired to that one; a faithful restatement is left as
 * it was cited, and words alone never make a sentence "checked".
 */
import { expect, test } from 'vitest'
import { type CheckInput, checkCitations } from '#server/answering/citation-checks/check-citations.ts'

function run(input: CheckInput) {
  const result = checkCitations(input)
  if (!result.ok) throw result.error
  return {
    answer: result.answer,
    checks: result.checks.map((c) => [c.outcome, c.sourceIndex, c.movedFrom ?? null]),
  }
}

test('German: a sentence of nouns alone cited to the wrong passage is moved to its own; a restatement stays', () => {
  const passages = [
    'Die effektive Benutzerkennung des Prozesses wird auf dessen reale Benutzerkennung gesetzt, bevor die Tötung versucht wird.',
    'Das Handbuch beschreibt die Konfigurationsdatei des Paketverwalters und ihre Einträge ausführlich.',
  ].map((text) => ({ text, language: 'german' }))
  const answer = [
    'Die effektive Benutzerkennung des Prozesses wird vor der Tötung auf die reale Benutzerkennung gesetzt [2].',
    'Vor der Tötung setzt das Programm die Benutzerkennung des Prozesses zurück [1].',
    'Die Konfigurationsdatei des Paketverwalters wird im Handbuch erklärt [2].',
  ].join(' ')
  const { answer: moved, checks } = run({ answer, passages, language: 'german' })
  expect(checks).toEqual([
    ['repaired', 1, 2],
    ['nothing-to-check', 1, null],
    ['nothing-to-check', 2, null],
  ])
  expect(moved).toContain('Benutzerkennung gesetzt [1].')
})

test('English: a sentence with nothing to check cited to the wrong passage is moved; a restatement and a short sentence stay', () => {
  const passages = [
    'The scheduler retries failed deliveries with exponential backoff until the queue drains.',
    'Templates render the dashboard widgets from cached statistics every morning.',
  ].map((text) => ({ text, language: 'english' }))
  const answer = [
    'Failed deliveries are retried by the scheduler with exponential backoff [2].',
    'Widgets on the dashboard are drawn each morning from statistics kept in a cache [2].',
    // Too few words to be placed by them: the citation stands.
    'The scheduler retries [2].',
  ].join(' ')
  expect(run({ answer, passages, language: 'english' }).checks).toEqual([
    ['repaired', 1, 2],
    ['nothing-to-check', 2, null],
    ['nothing-to-check', 2, null],
  ])
})

test('French: a sentence with nothing to check cited to the wrong passage is moved; a restatement stays', () => {
  const passages = [
    "Le planificateur relance les livraisons échouées avec un délai exponentiel jusqu'à ce que la file soit vide.",
    'Les modèles affichent les tableaux de bord à partir des statistiques mises en cache chaque matin.',
  ].map((text) => ({ text, language: 'french' }))
  const answer = [
    'Les livraisons échouées sont relancées par le planificateur avec un délai exponentiel [2].',
    'Chaque matin, les tableaux de bord sont affichés depuis les statistiques du cache [2].',
  ].join(' ')
  expect(run({ answer, passages, language: 'french' }).checks).toEqual([
    ['repaired', 1, 2],
    ['nothing-to-check', 2, null],
  ])
})

test('a figure found in the cited passage by chance does not hold a sentence whose words are another passage’s', () => {
  const passages = [
    'Backups of the archive are copied to the remote vault every night and kept for 30 days.',
    'Visitor badges expire after 30 days and are handed back at the reception desk.',
  ].map((text) => ({ text, language: 'english' }))
  const answer = 'Archive backups are copied to the remote vault nightly and kept 30 days [2].'
  expect(run({ answer, passages }).checks).toEqual([['repaired', 1, 2]])
})
