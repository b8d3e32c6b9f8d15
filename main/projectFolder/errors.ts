// The errors of project folders: what is wrong with a folder (its file and what in it), and a folder that
// was imported before. The HTTP layer answers them as 400 and 409 (main/http/errors), the CLI prints them.
import { HttpError } from '../domain/errors.ts';

/** The folder cannot be imported as it is: the message names the file and what is wrong in it. */
export class FolderError extends HttpError {
  constructor(detail: string) {
    super(400, detail, { code: 'invalid_project_folder' });
  }
}

/** The same folder (the same fingerprint of its project files) was imported before, into `projectId`. */
export class AlreadyImportedError extends HttpError {
  constructor(public readonly projectId: number, public readonly projectName: string, importedAt: string) {
    super(409, `This project folder was imported before, on ${importedAt}, as project ${projectId} ("${projectName}"). Delete that project to import the folder again.`, {
      code: 'project_folder_already_imported',
      project: projectId,
    });
  }
}
