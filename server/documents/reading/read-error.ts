/**
 * A file that cannot be read, with the reason a person reads after its name ("the PDF is
 * password-protected"). Every reader's own error is one, so an ingest marks the file failed with
 * the reason and goes on, while anything else (a bug, the database) is thrown on.
 */
export class FileReadError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FileReadError'
  }
}
