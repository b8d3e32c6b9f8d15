// The jobs that tell the outside world about documents: the completion callback (spec 6) after a
// successful processing, and the email to the assignee after an upload. Both run from the durable job
// queue, so a restart does not lose them; each delivery records its attempts itself. Sent by the
// analysis or processing (callback) and the upload (email); registered in main/jobs/registry.ts.
import type { Repos } from '../store/repositories/index.ts';
import type { JobHandler } from '../jobs/queue.ts';
import { NOTIFY_ASSIGNEE, SEND_CALLBACK } from '../jobs/kinds.ts';
import { sendCallback } from './callbacks.ts';
import type { CallbackPolicy } from './callbackTargets.ts';
import type { Mailer } from './mailer.ts';
import { uploadNotification } from './messages.ts';

export interface EventJobDeps {
  repos: Repos;
  mailer: Mailer;
  /** The document details as the API answers them (the callback's body). */
  documentJson: (documentId: number) => Promise<unknown>;
  /** The address the links in emails point to. */
  baseUrl: () => string;
  /** Where callbacks may go. */
  callbackPolicy: CallbackPolicy;
}

export function eventJobHandlers(deps: EventJobDeps): Record<string, JobHandler<{ documentId: number }>> {
  return {
    async [SEND_CALLBACK]({ payload, signal }) {
      const doc = await deps.repos.documents.findById(payload.documentId);
      if (!doc?.callback_url) return;
      await sendCallback({ url: doc.callback_url, body: await deps.documentJson(doc.id), documentId: doc.id }, { log: deps.repos.events, signal, policy: deps.callbackPolicy });
    },
    async [NOTIFY_ASSIGNEE]({ payload }) {
      const doc = await deps.repos.documents.findById(payload.documentId);
      if (!doc?.assignee_email) return;
      const project = await deps.repos.projects.findById(doc.project_id);
      const uploader = doc.created_by === null ? undefined : await deps.repos.users.findById(doc.created_by);
      const content = uploadNotification({
        baseUrl: deps.baseUrl(),
        documentId: doc.id,
        fileName: doc.data_file_name,
        projectName: project?.name ?? '',
        uploadedBy: uploader?.email,
      });
      await deps.mailer.send({ to: doc.assignee_email, ...content, kind: 'upload', documentId: doc.id });
    },
  };
}
