/**
 * Drive folders as an assistant's knowledge (issue 36). The sync records the folders each synced
 * file sits in (and a shortcut's target's), so "the documents of a folder, with its subfolders" is
 * a query at answer time, never a copy: files synced into a folder join, files moved out or deleted
 * leave, without anyone editing the assistant. `app.driveFolders` (drive-plugin.ts) is this port;
 * the assistants domain reads it and Drive never imports assistants.
 */

/** One folder of the connected Drive, for the knowledge picker's tree (parentId null: at the top). */
export type DriveFolderRow = { id: string; name: string; parentId: string | null }

/** A chosen folder as the assistant's page shows it; `missing`: Drive no longer has it. */
export type FolderKnowledge = { id: string; name: string; missing: boolean; documentCount: number }

export type DriveFolders = {
  /** The connected Drive's folders (empty when there is no connection or Google is not configured). */
  list(userId: string): Promise<DriveFolderRow[]>
  /**
   * The person's library document ids whose Drive file sits, now, in any of `folderIds` or their
   * subfolders (at any depth). Unknown or deleted folders contribute nothing.
   */
  documentIdsIn(userId: string, folderIds: readonly string[]): Promise<string[]>
  /** Each of `folderIds`, in order, with its name (the last known one when missing) and its document count. */
  describe(userId: string, folderIds: readonly string[]): Promise<FolderKnowledge[]>
  /** Those of `folderIds` the person's Drive has never shown (to refuse with 400 naming them). */
  unknown(userId: string, folderIds: readonly string[]): Promise<string[]>
}
