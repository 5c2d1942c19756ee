/**
 * What the citation check says of each cited sentence of an answer (issue 39, D128, D129), as the
 * app, exports, share links, visitors and the API carry it.
 */
import { z } from 'zod'

export const CHECK_OUTCOMES = ['checked', 'repaired', 'unverified', 'nothing-to-check', 'not-cited'] as const

/** What the optional model judge (CITATION_JUDGE=model, D140) said of a sentence it was asked about. */
export const JUDGE_VERDICTS = ['supported', 'not-supported'] as const

/**
 * One cited sentence of an answer, its figures, dates, codes, quotations and names looked up in
 * the passages the model was given (issue 39, D128, D129). `checked`: all in the cited passage;
 * `repaired`: in another passage given, so the marker was moved there (`movedFrom`: the [n] the
 * model wrote; `marker`: the one the text carries now); `unverified`: `missing` names the items
 * the passages do not hold; `nothing-to-check`; `not-cited`: a sentence with a figure and no
 * marker (marker and sourceIndex null). Numbers are 1-based like the markers. An answer written
 * without a model quotes its passages: each quoted sentence is checked, sourceIndex its place
 * among the answer's sources, marker null. `judge`: on a nothing-to-check or unverified sentence,
 * what the configured model said when the server asks it (CITATION_JUDGE=model, D140): the
 * model's opinion, never a check; the outcome stays as it was.
 */
export const CitationCheckSchema = z.object({
  marker: z.number().int().positive().nullable(),
  sentence: z.string(),
  outcome: z.enum(CHECK_OUTCOMES),
  sourceIndex: z.number().int().positive().nullable(),
  movedFrom: z.number().int().positive().optional(),
  missing: z.array(z.string()),
  judge: z.enum(JUDGE_VERDICTS).optional(),
})
export type CitationCheck = z.infer<typeof CitationCheckSchema>
