/**
 * An assistant whose knowledge is a Drive folder follows it (issue 36, D113, D115), through the
 * real app against the Google emulator: a file synced into the folder (or a subfolder) joins, one
 * moved out or deleted leaves, all without editing the assistant; a file elsewhere in the same
 * Drive is never read. Without a model the answer is extractive, so its text shows what was read.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DEFAULT_FALLBACK_ANSWER } from '#contracts/assistants.ts'
import type { App } from '#server/app.ts'
import { createGoogleEmulator, type GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { CAROL, MIME } from '#tests/fakes/google/fixtures.ts'
import { createAssistantOk, createWithAssistantOk } from '../support/assistant-helpers.ts'
import { sendOk } from '../support/chat-helpers.ts'
import { buildDriveApp, connectDrive, ingestOk, newPerson } from '../support/drive-helpers.ts'

let emulator: GoogleEmulator
let app: App

beforeAll(async () => {
  emulator = await createGoogleEmulator()
  app = await buildDriveApp(emulator)
})
afterAll(async () => {
  await app.close()
  await emulator.close()
})

function add(name: string, content: string, parent?: string): string {
  return emulator.state.addFile({
    owner: CAROL,
    name,
    mimeType: parent === undefined && content === '' ? MIME.folder : 'text/plain',
    ...(content === '' ? {} : { content }),
    ...(parent ? { parents: [parent] } : {}),
  }).id
}

test('a Drive folder as knowledge is followed after each sync: new files join, moved and deleted ones leave, the rest of the Drive is never read', async () => {
  const hr = emulator.state.addFile({ owner: CAROL, name: 'HR', mimeType: MIME.folder }).id
  const leave = emulator.state.addFile({
    owner: CAROL,
    name: 'Leave',
    mimeType: MIME.folder,
    parents: [hr],
  }).id
  const leaveFile = add('leave-policy.txt', 'The annual leave approval code is LEAVE-2741.\n', leave)
  add('parking.txt', 'Visitors park in lot P3 behind the warehouse.\n')
  const person = await newPerson(app, 'hr-bot')
  await connectDrive(app, person, { account: CAROL })
  await ingestOk(app, person)

  const bot = await createAssistantOk(app, person.cookie, {
    name: 'HR bot',
    knowledge: { documentIds: [], folderIds: [hr] },
  })
  const conversation = await createWithAssistantOk(app, person.cookie, bot._id)
  const ask = async (question: string) =>
    (await sendOk(app, person.cookie, conversation._id, question)).aiMessage.content

  // A subfolder counts; the file beside the folder is never read.
  expect(await ask('What is the annual leave approval code?')).toContain('LEAVE-2741')
  const parking = await ask('Where do visitors park?')
  expect(parking).toBe(DEFAULT_FALLBACK_ANSWER)
  expect(parking).not.toContain('P3')

  // A file synced into the folder joins, without editing the assistant.
  const remote = add('remote-work.txt', 'Remote work needs a signed REMOTE-5510 form.\n', hr)
  await ingestOk(app, person)
  expect(await ask('What form does remote work need?')).toContain('REMOTE-5510')

  // Moved out of the folder, or deleted in Drive: it leaves.
  emulator.state.moveFile(leaveFile, { addParents: ['root'], removeParents: [leave] })
  emulator.state.removeFile(remote)
  await ingestOk(app, person)
  expect(await ask('What is the annual leave approval code?')).toBe(DEFAULT_FALLBACK_ANSWER)
  expect(await ask('What form does remote work need?')).toBe(DEFAULT_FALLBACK_ANSWER)
})
