/**
 * The citation check (issue 39, D128) on answers in English, German and French: each kind of
 * item (figures in many forms, amounts, dates, codes, quotations, names) and each outcome
 * (checked, repaired, unverified, nothing-to-check, not-cited).
 */
import { expect, test } from 'vitest'
import { type CheckInput, checkCitations } from '#server/answering/citation-checks/check-citations.ts'
import type { CitationCheck } from '#server/answering/citation-checks/types.ts'

const en = (...texts: string[]) => texts.map((text) => ({ text, language: 'english' }))
const de = (...texts: string[]) => texts.map((text) => ({ text, language: 'german' }))
const fr = (...texts: string[]) => texts.map((text) => ({ text, language: 'french' }))

function checks(input: CheckInput): CitationCheck[] {
  const result = checkCitations(input)
  if (!result.ok) throw result.error
  return result.checks
}
const outcomes = (input: CheckInput) => checks(input).map((c) => c.outcome)

const SHIP = en(
  'The vessel Aurora reached 20 knots on 3 March 2024 near Bergen. Order AURORA-7731 was certified under ISO 27001 (§4.2). A deposit of 4,250 euros is due when the contract is signed. Inflation rose to 3.5 % and 1,200 servers were installed.',
  'Northwind Optics services the lens and the lamp twice a year, for 800 dollars a visit.',
)

test('figures written in other forms are checked: 1,200 = 1200 = 1.2k, 3.5 % = 3,5 %, 20 knots', () => {
  const answer =
    'About 1200 servers were installed [1]. That is 1.2k machines [1]. Inflation was 3,5 % [1]. The Aurora made 20 knots [1].'
  expect(outcomes({ answer, passages: SHIP })).toEqual(['checked', 'checked', 'checked', 'checked'])
})

test('a changed figure, or the right figure with another unit, is unverified and named', () => {
  const result = checks({
    answer: 'About 1,300 servers were installed [1]. The Aurora made 20 km [1].',
    passages: SHIP,
  })
  expect(result.map((c) => [c.outcome, c.missing])).toEqual([
    ['unverified', ['1,300']],
    ['unverified', ['20 km']],
  ])
})

test('amounts match across currency signs and words; a changed amount does not', () => {
  const answer = 'A deposit of €4,250 is due [1]. The deposit is EUR 4.250 [1]. The deposit is $4,250 [1].'
  expect(outcomes({ answer, passages: SHIP })).toEqual(['checked', 'checked', 'unverified'])
})

test('dates in ISO, numeric and written forms are one date; another day is not', () => {
  const answer =
    'The trial was on 2024-03-03 [1]. It was on 03/03/2024 [1]. It was on March 3, 2024 [1]. It was in March 2024 [1]. It was on 4 March 2024 [1].'
  expect(outcomes({ answer, passages: SHIP })).toEqual([
    'checked',
    'checked',
    'checked',
    'checked',
    'unverified',
  ])
})

test('codes match with other spacing but not with one character changed', () => {
  const answer =
    'The order is AURORA 7731 [1]. It meets ISO-27001 under § 4.2 [1]. The order is AURORA-7781 [1].'
  const result = checks({ answer, passages: SHIP })
  expect(result.map((c) => c.outcome)).toEqual(['checked', 'checked', 'unverified'])
  expect(result[2]?.missing).toEqual(['AURORA-7781'])
})

test('a quotation is checked through case, punctuation, hyphenation, a PDF line break, an ellipsis and a left-out word', () => {
  const passages = en(
    'The lens is cleaned with a non-\nabrasive cloth, never with alcohol, and dried by hand.',
  )
  const answer = [
    'It says “the lens is cleaned with a nonabrasive cloth” [1].',
    'It says "Cleaned with a non-abrasive cloth … dried by hand" [1].',
    'It says "cleaned with a cloth, never with alcohol" [1].',
  ].join(' ')
  expect(outcomes({ answer, passages })).toEqual(['checked', 'checked', 'checked'])
})

test('a quotation with one word changed is unverified, the quotation named', () => {
  const passages = en('The lens is cleaned with a non-abrasive cloth, never with alcohol.')
  const result = checks({ answer: 'It says "cleaned with a soft cloth, never with alcohol" [1].', passages })
  expect(result[0]).toMatchObject({
    outcome: 'unverified',
    missing: ['"cleaned with a soft cloth, never with alcohol"'],
  })
})

test('names are checked, but not a sentence’s first word; a name from the question counts', () => {
  const result = checks({
    answer:
      'Lenses are serviced by Northwind Optics [2]. They were serviced by Fabrikam Optics [2]. Maria asked about Contoso [2].',
    passages: SHIP,
    question: 'Does Contoso service them?',
  })
  expect(result.map((c) => [c.outcome, c.missing])).toEqual([
    ['checked', []],
    ['unverified', ['Fabrikam']],
    ['checked', []],
  ])
})

test('a sentence cited to the wrong passage is repaired: its marker moves to the passage holding its items', () => {
  const result = checkCitations({
    answer: 'Northwind Optics charges 800 dollars a visit [1].',
    passages: SHIP,
  })
  if (!result.ok) throw result.error
  expect(result.answer).toBe('Northwind Optics charges 800 dollars a visit [2].')
  expect(result.checks[0]).toMatchObject({
    marker: 2,
    outcome: 'repaired',
    sourceIndex: 2,
    movedFrom: 1,
    missing: [],
  })
})

test("only the repaired sentence's marker moves; markers in code and in other sentences stay", () => {
  const answer = [
    'Inflation rose to 3.5 % [1]. Northwind Optics charges 800 dollars a visit [1].',
    '```',
    'see [1]',
    '```',
    '- The lamp is serviced twice a year [2]. The Aurora made 20 knots [1].',
  ].join('\n')
  const result = checkCitations({ answer, passages: SHIP })
  if (!result.ok) throw result.error
  expect(result.answer).toBe(answer.replace('a visit [1]', 'a visit [2]'))
  expect(result.checks.map((c) => [c.outcome, c.marker])).toEqual([
    ['checked', 1],
    ['repaired', 2],
    ['nothing-to-check', 2],
    ['checked', 1],
  ])
})

test('the marker may follow the full stop; several markers count together', () => {
  const result = checks({
    answer:
      'The Aurora made 20 knots. [1] Northwind Optics charges 800 dollars and the deposit is 4,250 euros [1][2].',
    passages: SHIP,
  })
  expect(result.map((c) => [c.marker, c.outcome])).toEqual([
    [1, 'checked'],
    [1, 'checked'],
  ])
})

test('a sentence with a figure and no marker is not cited; one without a figure is left alone', () => {
  const result = checks({
    answer: 'Here is what I found. The deposit is 4,250 euros. Nothing else applies [1].',
    passages: SHIP,
  })
  expect(result.map((c) => [c.marker, c.outcome, c.sourceIndex])).toEqual([
    [null, 'not-cited', null],
    [1, 'nothing-to-check', 1],
  ])
})

test('German: 1.200 Euro, 3. März 2024 and 03.03.2024, quotations in „…“; nouns are not taken for names', () => {
  const passages = de(
    'Die Zahlung von 1.200 Euro ist am 3. März 2024 fällig. Herr Müller aus Hamburg bestätigt die Lieferung der Ware mit 2,5 % Rabatt.',
  )
  const answer = [
    'Die Zahlung beträgt 1200 € [1].',
    'Sie ist am 03.03.2024 fällig [1].',
    'Herr Müller bestätigt „die Lieferung der Ware“ [1].',
    'Der Rabatt beträgt 2,5 Prozent [1].',
    'Die Rechnung nennt einen Rabatt für die Ware [1].',
  ].join(' ')
  expect(outcomes({ answer, passages })).toEqual([
    'checked',
    'checked',
    'checked',
    'checked',
    'nothing-to-check',
  ])
})

test('German: a changed date, name or quoted word is unverified', () => {
  const passages = de(
    'Die Zahlung von 1.200 Euro ist am 3. März 2024 fällig. Herr Müller aus Hamburg bestätigt die Lieferung.',
  )
  const result = checks({
    answer:
      'Die Zahlung ist am 4. März 2024 fällig [1]. Herr Schneider aus Hamburg bestätigt sie [1]. Er bestätigt „die Bestellung“ [1].',
    passages,
  })
  expect(result.map((c) => [c.outcome, c.missing])).toEqual([
    ['unverified', ['4. März 2024']],
    ['unverified', ['Schneider']],
    ['unverified', ['„die Bestellung“']],
  ])
})

test('French: 1 200 €, 3 mars 2024, « … » quotations, names; a moved citation is repaired', () => {
  const passages = fr(
    'Le paiement de 1 200 euros est dû le 3 mars 2024. Madame Dupont, de Lyon, confirme la livraison.',
    'La garantie couvre 24 mois à partir de la livraison.',
  )
  const result = checks({
    answer: [
      'Selon le contrat, 1 200 € sont dus le 3 mars 2024 [1].',
      'Madame Dupont confirme « la livraison » [1].',
      'Madame Martin confirme la livraison [1].',
      'La garantie dure 24 mois [1].',
    ].join(' '),
    passages,
  })
  expect(result.map((c) => [c.outcome, c.sourceIndex, c.missing])).toEqual([
    ['checked', 1, []],
    ['checked', 1, []],
    ['unverified', 1, ['Martin']],
    ['repaired', 2, []],
  ])
})

test('the check never throws: a failure is returned for the caller to log', () => {
  const passages = [{ text: null as unknown as string, language: 'english' }]
  const result = checkCitations({ answer: 'The deposit is 4,250 euros [1].', passages })
  expect(result.ok).toBe(false)
})

test('a quotation of a markdown link’s words is found in the passage as stored; a changed word still is not', () => {
  const passages = en(
    '## Vercel\n\n[Vercel](https://vercel.com/home) fully supports deploying Fastify applications, see [the guide](https://vercel.com/docs/(frameworks) "Guide") for more.',
  )
  const answer =
    'The page says “Vercel fully supports deploying Fastify applications” [1]. It says “see the guide for more” [1]. It says “Vercel fully supports running Fastify applications” [1].'
  expect(outcomes({ answer, passages })).toEqual(['checked', 'checked', 'unverified'])
})
