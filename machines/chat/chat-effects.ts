/**
 * Effects that report back as events. An invoke runs one request per state, but deletions and
 * feedback may overlap (delete two conversations in a row, rate two answers), so those run as
 * spawned callback actors that send the machine a fact when their request settles.
 */
import { type EventObject, fromCallback } from 'xstate'

type Reports<TInput, TOutput, TEvent extends EventObject> = {
  done: (input: TInput, output: TOutput) => TEvent
  failed: (input: TInput, error: unknown) => TEvent
}

/** Runs `request(input)` once and sends back `done` or `failed`; stop it after either arrives. */
export function fromReportingRequest<TInput, TOutput, TEvent extends EventObject>(
  request: (input: TInput) => Promise<TOutput>,
  reports: Reports<TInput, TOutput, TEvent>,
) {
  return fromCallback<EventObject, TInput>(({ input, sendBack }) => {
    request(input).then(
      (output) => sendBack(reports.done(input, output)),
      (error: unknown) => sendBack(reports.failed(input, error)),
    )
  })
}

/** The callback-actor twin of notProvided(): fails loudly until provideChatMachine fills it. */
export function reportingNotProvided<TInput>(name: string) {
  return fromCallback<EventObject, TInput>(() => {
    throw new Error(
      `The "${name}" effect was not provided: build the machine with its provide…Machine(deps).`,
    )
  })
}
