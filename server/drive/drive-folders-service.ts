/**
 * `app.driveFolders` (the DriveFolders port, drive-folders.ts): a person's Drive folders as the
 * last sync saw them, read from drive-folders-repository.ts. Without Google configured nobody has
 * a Drive: no folders, no documents, every id unknown.
 */
import type { Db } from '../db/database.ts'
import type { DriveFolders } from './drive-folders.ts'
import { createDriveFoldersRepository } from './drive-folders-repository.ts'

export function createDriveFolders(db: Db): DriveFolders {
  const repository = createDriveFoldersRepository(db)
  return {
    list: (userId) => repository.list(userId),
    documentIdsIn: (userId, folderIds) => repository.documentIdsIn(userId, folderIds),
    async describe(userId, folderIds) {
      const known = await repository.describe(userId, folderIds)
      // A folder never recorded (or forgotten with its Drive) is described as missing, by its id.
      return folderIds.map((id) => ({
        id,
        ...(known.get(id) ?? { name: id, missing: true, documentCount: 0 }),
      }))
    },
    unknown: (userId, folderIds) => repository.unknown(userId, folderIds),
  }
}

/** Google not configured: no person has a Drive to take folders from. */
export const NO_DRIVE_FOLDERS: DriveFolders = {
  list: async () => [],
  documentIdsIn: async () => [],
  describe: async (_userId, folderIds) =>
    folderIds.map((id) => ({ id, name: id, missing: true, documentCount: 0 })),
  unknown: async (_userId, folderIds) => [...new Set(folderIds)],
}
