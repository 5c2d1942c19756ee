/** One client function per Google Drive endpoint; the deps injected into the drive machines. */
import { assistantEndpoints, type DriveFolder } from '#contracts/assistants.ts'
import { type DriveFile, type DriveUpload, driveEndpoints, type IngestReport } from '#contracts/drive.ts'
import type { Http } from './client.ts'
import { postFile } from './documents.ts'

export function createDriveApi(http: Http) {
  return {
    async listFiles(email: string): Promise<DriveFile[]> {
      return (await http(driveEndpoints.listFiles, { query: { email } })).data.files
    },
    async getFile(fileId: string, email: string): Promise<DriveFile> {
      return (await http(driveEndpoints.getFile, { params: { fileId }, query: { email } })).data
    },
    /** Revokes the grant, deletes the tokens; keeps or removes the Drive documents. */
    async disconnect(documents: 'keep' | 'remove'): Promise<{ removedDocuments: number }> {
      return (await http(driveEndpoints.disconnect, { body: { documents } })).data
    },
    async ingestDocuments(email: string): Promise<IngestReport> {
      return (await http(driveEndpoints.ingestDocuments, { body: { email } })).data
    },
    /** The connected Drive's folders, for an assistant's knowledge picker (empty without a connection). */
    async listFolders(): Promise<DriveFolder[]> {
      return (await http(assistantEndpoints.listDriveFolders)).data
    },
  }
}

/** 'Upload to Drive' (multipart, like the spec's upload): the file goes into the person's Drive, then the library. */
export function uploadToDrive(
  input: { name: string; content: Blob },
  doFetch?: typeof fetch,
): Promise<DriveUpload> {
  const { uploadFile } = driveEndpoints
  return postFile(uploadFile.path, uploadFile.response, input, doFetch)
}
