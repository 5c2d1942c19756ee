/**
 * What the assistants refuse, as domain errors (D108) with the sentences the person reads; the
 * error handler answers 404 for an assistant that is not theirs and 400 for the rest.
 */
import { ASSISTANTS_PER_PERSON } from '#contracts/assistants.ts'
import { Invalid, NotFound } from '../http/domain-errors.ts'

export const ASSISTANT_NOT_FOUND = 'Assistant not found'
export const TOO_MANY_ASSISTANTS = `You already have ${ASSISTANTS_PER_PERSON} assistants, the most one person can have. Delete one to make another.`
export const documentNotInLibrary = (id: string) => `Document ${id} is not in your library.`
export const folderNotInDrive = (id: string) =>
  `Folder ${id} is not a folder of your connected Google Drive. Sync your Drive, then choose it again.`
export function modelNotOffered(model: string, models: readonly string[]): string {
  return models.length === 0
    ? `This server offers no choice of model, so "${model}" cannot be set: leave the model empty to use the server's.`
    : `"${model}" is not a model this server offers. Choose one of: ${models.join(', ')}.`
}

/** Not theirs, or gone: the two answer alike. */
export class AssistantNotFound extends NotFound {
  constructor() {
    super(ASSISTANT_NOT_FOUND)
  }
}

export class TooManyAssistants extends Invalid {
  constructor() {
    super(TOO_MANY_ASSISTANTS)
  }
}

export class DocumentNotInLibrary extends Invalid {
  constructor(id: string) {
    super(documentNotInLibrary(id))
  }
}

export class FolderNotInDrive extends Invalid {
  constructor(id: string) {
    super(folderNotInDrive(id))
  }
}

export class ModelNotOffered extends Invalid {
  constructor(model: string, models: readonly string[]) {
    super(modelNotOffered(model, models))
  }
}
