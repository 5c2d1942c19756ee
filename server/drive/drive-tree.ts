/**
 * What a sync records of the Drive's folder tree (D115), from what Drive listed or the change feed
 * named: the folders, and the folders each file or shortcut sits in. A shortcut stands for its
 * target: the target's document counts in the shortcut's folders as well as in its own (which
 * the target's own entry records when the target is in the person's Drive).
 */
import { type DriveChange, type DriveListedFile, FOLDER_MIME } from './drive-api.ts'
import type { FolderInput, ItemInput } from './drive-folders-repository.ts'

const isFolder = (file: DriveListedFile) => file.mimeType === FOLDER_MIME

function item(file: DriveListedFile): ItemInput {
  return { id: file.id, targetId: file.shortcutTargetId ?? file.id, parents: file.parents }
}

function folder(file: DriveListedFile): FolderInput {
  return { id: file.id, name: file.name, parents: file.parents }
}

/** A whole listing (nothing trashed in it): its folders and its items. */
export function treeOfListing(files: readonly DriveListedFile[]): {
  folders: FolderInput[]
  items: ItemInput[]
} {
  return {
    folders: files.filter(isFolder).map(folder),
    items: files.filter((f) => !isFolder(f)).map(item),
  }
}

/** The change feed's entries: what is gone (deleted, trashed, out of reach), and what is there now. */
export function treeOfChanges(changes: readonly DriveChange[]): {
  gone: string[]
  folders: FolderInput[]
  items: ItemInput[]
} {
  const gone: string[] = []
  const folders: FolderInput[] = []
  const items: ItemInput[] = []
  for (const { fileId, file } of changes) {
    if (file === null || file.trashed) gone.push(fileId)
    else if (isFolder(file)) folders.push(folder(file))
    else items.push(item(file))
  }
  return { gone, folders, items }
}
