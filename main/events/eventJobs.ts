// The jobs that tell the outside world about documents: the completion callback (spec 6) after a
// successful processing, and the email to the assignee after an upload. Both run from the durable job
// queue on the delivery worker (main/jobs/registry.ts), apart from processing, so a receiver or an SMTP
// server that never answers holds up no document. Each run makes ONE attempt and records it; a failure
// that may pass fails the run with the receiver's Retry-After, and the queue makes the next attempt after
// its back-off (surviving a restart, the attempt count with it). Sent by the analysis (callback) and the
// upload (email).
import type { Repos } from '../store/repositories/index.ts';
import { RetryLaterError, type JobContext, type JobHandler } from '../jobs/queue.ts';
import { NOTIFY_ASSIGNEE, SEND_CALLBACK } from '../jobs/kinds.ts';
import { attemptCallback } from './callbacks.ts';
import type { CallbackPolicy } from './callbackTargets.ts';
import type { Mail, Mailer } from './mailer.ts';
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
    async [SEND_CALLBACK]({ job, payload, signal }) {
      const doc = await deps.repos.documents.findById(payload.documentId);
      if (!doc?.callback_url) return;
      const outcome = await attemptCallback(
        { url: doc.callback_url, body: await deps.documentJson(doc.id), documentId: doc.id },
        { log: deps.repos.events, signal, policy: deps.callbackPolicy, attempt: job.attempts },
      );
      // Delivered, or refused for good (a 4xx, a redirect, a receiver not allowed): the job is done.
      if (outcome.retry && job.attempts < job.max_attempts) throw new RetryLaterError(`Callback attempt ${outcome.attempt}: ${outcome.error}`, outcome.retryAfterMs);
    },
    async [NOTIFY_ASSIGNEE](ctx) {
      const { payload } = ctx;
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
      await sendMail(deps.mailer, { to: doc.assignee_email, ...content, kind: 'upload', documentId: doc.id }, ctx);
    },
  };
}

/**
 * One try at a delivery job's email (mailer.ts), keyed by the job so that its retries update one outbox
 * row; a try that failed for a reason that may pass fails the run, for the queue to try again.
 */
export async function sendMail(mailer: Mailer, mail: Mail, { job }: Pick<JobContext, 'job'>): Promise<void> {
  const row = await mailer.send(mail, { key: job.dedupe_key ?? `job:${job.id}`, attempt: job.attempts, last: job.attempts >= job.max_attempts });
  if (row.state === 'queued') throw new RetryLaterError(`Email try ${job.attempts}: ${row.last_error}`);
}
